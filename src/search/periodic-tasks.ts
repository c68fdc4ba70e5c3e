// The search index's background work once it is built (registry-search.ts): following the change log,
// purging it, saving snapshots. Each runs on its own timer that does not keep the process alive; a
// failure is logged and the next tick tries again.
import type { Log } from './registry-options.js';

export class PeriodicTasks {
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly log: () => Log | undefined) {}

  /** Runs `task` every `ms`; a failure is logged as `failed`. */
  every(ms: number, task: () => Promise<unknown>, failed: string): void {
    const timer = setInterval(
      () => void task().catch((error: unknown) => this.log()?.warn({ err: error }, failed)),
      ms,
    );
    timer.unref();
    this.timers.push(timer);
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }
}
