// Seeded randomness: every condition draws from its own stream, derived from a hash of its parts
// (the generators: seed, template, layer, index; the fault proxy: seed, family, layer, severity), so
// one draw never depends on how many came before it. The one generator lives in the fault proxy's
// package (proxy/src/random.ts), which the harness depends on like any package: the proxy's draws
// and the generators' are the same function, not two copies.
export { rng, type Rng } from '../proxy/src/random.ts';
