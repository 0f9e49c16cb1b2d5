// One generation at a time (the server has one context sequence), the others waiting in order, up to
// a bound; past it a request is refused at once (HTTP 503) instead of waiting without end. A request
// whose client went away is dropped from the queue; a running one is aborted by its signal.
export class QueueFull extends Error {}

interface Waiting { run: () => Promise<void>; drop: () => void; signal: AbortSignal }

export class SerialQueue {
  private readonly waiting: Waiting[] = [];
  private running = false;
  constructor(private readonly maxWaiting: number) {}

  /** requests waiting, not counting the one running */
  get size(): number { return this.waiting.length; }

  /** Runs task when its turn comes; rejects with QueueFull when maxWaiting are already waiting. */
  push<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.running && this.waiting.length >= this.maxWaiting) return Promise.reject(new QueueFull(`${this.waiting.length} requests are waiting already`));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ signal, run: () => task().then(resolve, reject), drop: () => reject(signal.reason ?? new Error('aborted')) });
      this.next();
    });
  }

  private next(): void {
    if (this.running) return;
    let item: Waiting | undefined;
    while ((item = this.waiting.shift()) && item.signal.aborted) item.drop(); // its client went away
    if (!item) return;
    this.running = true;
    item.run().finally(() => {
      this.running = false;
      this.next();
    });
  }
}
