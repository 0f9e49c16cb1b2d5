// Seeded draws: each from its own stream, derived from a hash of its parts (the proxy's: seed,
// family, layer, severity), so that one draw never depends on how many came before it, in any
// process. The harness draws its conditions from the same function (core/random.ts re-exports it).
import crypto from 'node:crypto';

export interface Rng { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T; shuffle<T>(items: readonly T[]): T[] }

/** mulberry32 seeded from the first 32 bits of sha256(parts joined by ':') */
export function rng(...parts: (string | number)[]): Rng {
  let a = parseInt(crypto.createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 8), 16) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(items: readonly T[]) => items[int(items.length)]!;
  const shuffle = <T,>(items: readonly T[]) => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  return { next, int, pick, shuffle };
}
