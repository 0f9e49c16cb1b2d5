// A worker pool: n workers take the next item off one queue. Each worker owns its resources
// (here: a fixture server), made once by setup and released by teardown.
// A failure stops the queue: no worker takes another item, the items already taken finish, and only
// then does the pool reject with the first failure. So nothing a worker does (a row it writes)
// happens after the pool has settled: the run's end line counts every row.
export async function runPool<T, W>(options: {
  items: readonly T[];
  workers: number;
  setup: (index: number) => Promise<W>;
  teardown: (worker: W) => Promise<void>;
  work: (item: T, worker: W) => Promise<void>;
}): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const run = async (index: number) => {
    try {
      const worker = await options.setup(index);
      try {
        while (!failure && next < options.items.length) {
          const item = options.items[next++]!;
          await options.work(item, worker);
        }
      } finally {
        await options.teardown(worker);
      }
    } catch (error) {
      failure ??= { error };
    }
  };
  const n = Math.max(1, Math.min(options.workers, options.items.length || 1));
  await Promise.all(Array.from({ length: n }, (_, i) => run(i)));
  if (failure) throw (failure as { error: unknown }).error;
}
