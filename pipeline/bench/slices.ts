// The bench's slices: seeded, stratified samples of a registered arm's units, so that every stratum
// (template × layer × severity × policy for `layers`, scenario × delay for `evidence`) is represented
// and the same seed always draws the same units. The units keep the plan's order.
import { rng } from '../kernel/random.ts';

/**
 * `size` units of `units`, spread evenly over the strata keyOf names: each stratum gets
 * floor(size / strata), and a seeded choice of strata one more; within a stratum a seeded choice.
 */
export function stratifiedSample<T>(units: readonly T[], keyOf: (unit: T) => string, size: number, seed: string): T[] {
  const strata = new Map<string, number[]>();
  units.forEach((u, i) => {
    const k = keyOf(u);
    strata.set(k, [...(strata.get(k) ?? []), i]);
  });
  const keys = [...strata.keys()].sort();
  const base = Math.floor(size / keys.length);
  const extra = new Set(rng('bench-strata', seed).shuffle(keys).slice(0, size - base * keys.length));
  const chosen: number[] = [];
  for (const k of keys) {
    const members = strata.get(k)!;
    chosen.push(...rng('bench-stratum', seed, k).shuffle(members).slice(0, base + (extra.has(k) ? 1 : 0)));
  }
  return chosen.sort((a, b) => a - b).map((i) => units[i]!);
}

/** Splits units into n blocks that interleave (unit i goes to block i mod n), so each block spans the slice. */
export function blocksOf<T>(units: readonly T[], n: number): T[][] {
  const blocks: T[][] = Array.from({ length: Math.min(n, units.length) }, () => []);
  units.forEach((u, i) => blocks[i % blocks.length]!.push(u));
  return blocks;
}
