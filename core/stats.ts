// The two statistics every summary and the reanalysis use: Wilson score intervals for
// proportions, and the exact two-sided McNemar test on discordant pairs.

export interface Interval { low: number; high: number }

/** Wilson score interval for k successes in n trials (95% by default). n = 0 gives [0, 1]. */
export function wilson(k: number, n: number, z = 1.959963984540054): Interval {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n) throw new RangeError(`wilson: need 0 <= k <= n, got ${k}/${n}`);
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denom = 1 + z2 / n;
  // at k = 0 and k = n the bound is exactly 0 or 1; floating point would leave 1e-16 of dust
  return { low: k === 0 ? 0 : Math.max(0, (centre - spread) / denom), high: k === n ? 1 : Math.min(1, (centre + spread) / denom) };
}

/** log of n choose k, exact enough for the binomial tails below. */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * Exact two-sided McNemar test: b pairs went one way, c the other. Under the null each discordant
 * pair is a fair coin, so p = min(1, 2 · P[Binomial(b + c, 1/2) <= min(b, c)]).
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) throw new RangeError(`mcnemar: need whole counts, got ${b}, ${c}`);
  const n = b + c;
  if (n === 0) return 1;
  const m = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= m; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** The q-quantile with linear interpolation between the closest ranks (DuckDB's quantile_cont, R's type 7). */
export function quantile(values: number[], q: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo]! + (s[hi]! - s[lo]!) * (at - lo);
}
