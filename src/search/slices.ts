// Long work on the event loop in short slices: at most SLICE_MS of it at a time, then the loop serves what
// waits (requests, timers) before the next slice. Start-up builds and snapshots go through here, so no
// request waits more than a slice behind them.
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** The longest stretch of start-up work between two turns of the event loop. */
export const SLICE_MS = 8;

/** Calls `fn` on each value, yielding to the event loop whenever SLICE_MS have passed. */
export async function inSlices<T>(values: Iterable<T>, fn: (value: T) => void, sliceMs = SLICE_MS): Promise<void> {
  let start = performance.now();
  for (const value of values) {
    fn(value);
    if (performance.now() - start >= sliceMs) {
      await yieldToLoop();
      start = performance.now();
    }
  }
}
