// Progress of a long command (units import): a bar on a terminal, lines on a pipe. It says when the command
// waits and why ("rate limited: waiting 42s"), counting the wait down, and its estimate of the time left is
// made from working time only: waiting out a rate limit says nothing about how fast the rest will go.
import type { Wait } from './client.js';

/** Working time: a clock that stops while the command waits for the registry (injected time for tests). */
export class WorkClock {
  private worked = 0;
  private since: number | null;
  private waiting = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.since = now();
  }

  /** A wait begins (several may overlap: the clock stops at the first and runs again after the last). */
  pause(): void {
    if (this.waiting++ === 0 && this.since !== null) {
      this.worked += this.now() - this.since;
      this.since = null;
    }
  }

  resume(): void {
    if (this.waiting > 0 && --this.waiting === 0) this.since = this.now();
  }

  /** Ms worked so far. */
  elapsed(): number {
    return this.worked + (this.since === null ? 0 : this.now() - this.since);
  }

  /** Seconds left at the working pace so far; null until something is done. */
  eta(done: number, total: number): number | null {
    if (done <= 0) return null;
    return Math.round(((this.elapsed() / done) * Math.max(0, total - done)) / 1000);
  }
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

interface Bar {
  start(total: number, value: number, payload: object): void;
  update(value: number, payload: object): void;
  stop(): void;
}

/**
 * The progress of `total` items. On a terminal, a bar with "N left" or the wait it is in; elsewhere (a pipe,
 * a log) nothing but one line per wait, so a log shows why a run paused. Silent with --json.
 */
export class Progress {
  private done = 0;
  private wait: { reason: string; until: number } | null = null;
  private readonly clock: WorkClock;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly total: number,
    private readonly bar: Bar | null,
    private readonly log: ((line: string) => void) | null,
    private readonly now: () => number = Date.now,
  ) {
    this.clock = new WorkClock(now);
    this.bar?.start(total, 0, { status: this.status() });
    // The wait counts down while nothing else moves the bar.
    if (this.bar) this.timer = setInterval(() => this.redraw(), 1000).unref();
  }

  /** What the status column says now. */
  status(): string {
    if (this.wait)
      return `${this.wait.reason}: waiting ${formatSeconds(Math.max(0, Math.ceil((this.wait.until - this.now()) / 1000)))}`;
    const eta = this.clock.eta(this.done, this.total);
    return eta === null ? 'estimating time left' : `${formatSeconds(eta)} left`;
  }

  /** One item is finished. */
  increment(): void {
    this.done++;
    this.redraw();
  }

  /** The client is about to wait (this is its onWait); the function answered is called when the wait is over. */
  waiting(wait: Wait): () => void {
    const reason = wait.message.replace(/: waiting .*$/, '');
    this.clock.pause();
    const until = this.now() + wait.seconds * 1000;
    if (!this.wait || until > this.wait.until) this.wait = { reason, until };
    this.log?.(`${wait.message} (${this.done} of ${this.total} done)`);
    this.redraw();
    return () => {
      this.clock.resume();
      if (this.wait && this.now() >= this.wait.until) this.wait = null;
      this.redraw();
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.bar?.stop();
  }

  private redraw(): void {
    this.bar?.update(this.done, { status: this.status() });
  }
}
