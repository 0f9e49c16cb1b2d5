// The paper's placeholders: a tiny template language in which the source names what to show and
// the build fills it from analysis/out, so no number is ever typed into the paper.
//
//   {{table NAME [columns=a,b,x%] [where=k:v,k:v] [caption="..."]}}  a table of analysis/out/NAME.json
//   {{value NAME.COLUMN where=k:v,... [fmt=int|pct|ms|num|p]}}        one cell
//   {{rate NAME RATE where=...}}                                      "k/n = 53.3% (95% CI 36.1–69.8%)"
//   {{pair NAME where=...}}                                           discordant pairs and exact McNemar p
//   {{figure NAME}}                                                   figures/out/NAME.svg, inline
//   {{status STUDY ARM}}                                              what data exists for an arm
//   {{explain KEY table=NAME [where=...]}}                            the sentence explaining a difference
//   {{#if-data NAME [where=...]}} ... {{else}} ... {{/if-data}}       text shown only with (or without) data
//
// `x%` in columns shows x_rate with its Wilson interval (x_low, x_high) in one cell.

export interface Placeholder { kind: string; args: string[]; options: Record<string, string>; text: string }

/** Splits `table layers_overall columns=a,b caption="Table I"` into its parts. */
export function parsePlaceholder(text: string): Placeholder {
  type Token = { key: string; value: string } | { word: string };
  const tokens: Token[] = [...text.matchAll(/([A-Za-z_][\w-]*)="([^"]*)"|(\S+)/g)].map((m) => (m[1] ? { key: m[1], value: m[2] ?? '' } : { word: m[3] ?? '' }));
  const [first, ...rest] = tokens;
  if (!first || !('word' in first)) throw new Error(`empty placeholder {{${text}}}`);
  const args: string[] = [];
  const options: Record<string, string> = {};
  for (const t of rest) {
    if ('key' in t) options[t.key] = t.value;
    else if (/^[A-Za-z_][\w-]*=/.test(t.word)) {
      const i = t.word.indexOf('=');
      options[t.word.slice(0, i)] = t.word.slice(i + 1);
    } else args.push(t.word);
  }
  return { kind: first.word, args, options, text };
}

/** `policy:selector-only,browser:chromium` → {policy: 'selector-only', browser: 'chromium'} */
export function parseWhere(where: string | undefined): Record<string, string> {
  if (!where) return {};
  return Object.fromEntries(
    where.split(',').map((pair) => {
      const i = pair.indexOf(':');
      if (i < 1) throw new Error(`where=${where}: each condition is column:value`);
      return [pair.slice(0, i), pair.slice(i + 1)];
    }),
  );
}

export function matches(row: Record<string, unknown>, where: Record<string, string>): boolean {
  return Object.entries(where).every(([k, v]) => String(row[k]) === v);
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function formatValue(value: unknown, fmt = 'num'): string {
  if (value === null || value === undefined) return '–';
  if (typeof value !== 'number') return escapeHtml(String(value));
  switch (fmt) {
    case 'int': return String(Math.round(value));
    case 'pct': return `${(100 * value).toFixed(1)}%`;
    case 'ms': return `${value.toFixed(1)} ms`;
    case 'p': return value < 0.0001 ? `< 0.0001` : value.toPrecision(3).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
    default: return String(value);
  }
}
