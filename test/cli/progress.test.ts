// The progress of a long import: what it says while it waits, and an estimate of the time left made from
// working time only (a fake clock; nothing here depends on how fast the machine is).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSeconds, Progress, WorkClock } from '../../src/cli/progress.js';

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const wait = (seconds: number) => ({
  reason: 'rate_limited' as const,
  seconds,
  attempt: 2,
  message: `rate limited: waiting ${seconds}s`,
});

describe('WorkClock', () => {
  it('stops while the command waits, for overlapping waits too', () => {
    const time = clock();
    const work = new WorkClock(time.now);
    time.advance(10_000);
    work.pause();
    work.pause();
    time.advance(50_000);
    work.resume();
    time.advance(5_000);
    work.resume();
    time.advance(2_000);
    assert.equal(work.elapsed(), 12_000);
  });

  it('estimates the time left from the pace of working time', () => {
    const time = clock();
    const work = new WorkClock(time.now);
    assert.equal(work.eta(0, 100), null);
    time.advance(10_000);
    assert.equal(work.eta(10, 100), 90);
    work.pause();
    time.advance(60_000);
    assert.equal(work.eta(10, 100), 90, 'a minute of waiting changes nothing');
    work.resume();
    time.advance(1_000);
    assert.equal(work.eta(11, 100), 89);
  });
});

describe('Progress', () => {
  it('says that it waits and why, counting down, then goes back to the time left', () => {
    const time = clock();
    const lines: string[] = [];
    const progress = new Progress(100, null, (line) => lines.push(line), time.now);
    assert.equal(progress.status(), 'estimating time left');
    time.advance(20_000);
    for (let i = 0; i < 20; i++) progress.increment();
    assert.equal(progress.status(), '1m20s left');
    const over = progress.waiting(wait(42));
    assert.equal(progress.status(), 'rate limited: waiting 42s');
    time.advance(30_000);
    assert.equal(progress.status(), 'rate limited: waiting 12s');
    time.advance(12_000);
    over();
    assert.equal(progress.status(), '1m20s left', 'the 42 s of waiting are not in the estimate');
    assert.deepEqual(lines, ['rate limited: waiting 42s (20 of 100 done)']);
    progress.stop();
  });

  it('draws on a bar when there is a terminal', () => {
    const time = clock();
    const drawn: string[] = [];
    const bar = {
      start: () => undefined,
      update: (_value: number, payload: object) => drawn.push((payload as { status: string }).status),
      stop: () => undefined,
    };
    const progress = new Progress(10, bar, null, time.now);
    const over = progress.waiting(wait(3));
    assert.equal(drawn.at(-1), 'rate limited: waiting 3s');
    time.advance(3_000);
    over();
    progress.increment();
    progress.stop();
    assert.equal(drawn.at(-1), '0s left');
  });

  it('formats seconds for people', () => {
    assert.deepEqual(
      [formatSeconds(5), formatSeconds(65), formatSeconds(1260), formatSeconds(3700)],
      ['5s', '1m05s', '21m00s', '1h01m'],
    );
  });
});
