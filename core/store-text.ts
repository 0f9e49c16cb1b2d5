// How a small app's value is written in a trace's store.json (schemas/store-reads.schema.json): its
// JSON text with the keys of every object sorted, so that two equal values are one text and VTS is
// the boundary's text equal to the target's. The transport arm writes it
// (pipeline/layers/transport/small-apps.ts); make rescore reads it (analysis/rescore.ts).

const sortKeys = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, sortKeys(x)]))
    : v;

/** A small app's value as store.json writes it; null (or nothing) stays null. */
export const storeText = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(sortKeys(value)));
