// When the search index (registry-search.ts) can answer: the promise start-up awaits, and the bounded waits
// of searches that arrive while the index is still being built.
export class Readiness {
  /** Settles the first time the index is built (or its build failed, or it closed). */
  readonly first: Promise<void>;
  private settleFirst!: () => void;
  private readonly waiting = new Set<() => void>();

  constructor() {
    this.first = new Promise((resolve) => (this.settleFirst = resolve));
  }

  /** The index can answer now, or never will (a failed build, a close): whatever waits goes on. */
  signal(): void {
    this.settleFirst();
    for (const done of [...this.waiting]) done();
  }

  /** Resolves on the next signal, or after `ms`, whichever comes first. */
  within(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }
}

/** Waits for `work` to settle, but no longer than `ms` (the work itself goes on). */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
