// Exponential back-off with full jitter, bounded: after the n-th failure in a row the next attempt waits a
// random time up to min(maxMs, baseMs × 2^(n-1)); a success starts over. Used by the embedding loop and by
// query embeddings, so a failing endpoint is asked a few times a minute, never in a loop.

export interface BackoffOptions {
  baseMs?: number;
  maxMs?: number;
  /** A number in [0, 1); tests pass a fixed one. */
  random?: () => number;
  now?: () => number;
}

export class Backoff {
  private failures = 0;
  private until = 0;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: BackoffOptions = {}) {
    this.baseMs = options.baseMs ?? 1_000;
    this.maxMs = options.maxMs ?? 5 * 60_000;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  /** Records a failure; returns how long to wait before the next attempt (at least half the step). */
  failed(): number {
    this.failures++;
    const step = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.failures - 1, 30));
    const wait = Math.round(step / 2 + (step / 2) * this.random());
    this.until = this.now() + wait;
    return wait;
  }

  succeeded(): void {
    this.failures = 0;
    this.until = 0;
  }

  /** Failures in a row. */
  get streak(): number {
    return this.failures;
  }

  /** Whether an attempt now would come before the wait is over. */
  get waiting(): boolean {
    return this.now() < this.until;
  }
}
