// The seeded randomness every generator draws from lives in core/random.ts, the shared leaf, so that
// the fault proxy (proxy/, which never imports pipeline/) draws from the same streams.
export { rng, type Rng } from '../../core/random.ts';
