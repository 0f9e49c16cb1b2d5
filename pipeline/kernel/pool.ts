// A worker pool: n workers take the next item off one queue. Each worker owns its resources
// (here: a fixture server), made once by setup and released by teardown.
export async function runPool<T, W>(options: {
  items: readonly T[];
  workers: number;
  setup: (index: number) => Promise<W>;
  teardown: (worker: W) => Promise<void>;
  work: (item: T, worker: W) => Promise<void>;
}): Promise<void> {
  let next = 0;
  const run = async (index: number) => {
    const worker = await options.setup(index);
    try {
      while (next < options.items.length) {
        const item = options.items[next++]!;
        await options.work(item, worker);
      }
    } finally {
      await options.teardown(worker);
    }
  };
  const n = Math.max(1, Math.min(options.workers, options.items.length || 1));
  await Promise.all(Array.from({ length: n }, (_, i) => run(i)));
}
