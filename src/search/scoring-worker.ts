// A scoring worker of the scoring pool (scoring-pool.ts): the lexical top-k of one query at a time, by
// the strategy the index chose, over postings lists read in place (shared memory) or copied into the job.
// It keeps nothing between jobs but its score buffers.
import { parentPort } from 'node:worker_threads';
import { maxScoreTopK } from './maxscore.js';
import { ScoreAccumulator, type QueryList } from './top-k.js';
import { countLive } from './postings.js';
import type { ScoringAnswer, ScoringJob } from './scoring-pool.js';
import { columnFilter } from './filter.js';

const scorer = new ScoreAccumulator();
/** Keys are read only by a filter: a job without one has none. */
const NO_KEYS = new Float64Array(0);

function score(job: ScoringJob): ScoringAnswer {
  const qs: QueryList[] = job.lists.map((p) => ({ p, w: p.w }));
  const keys = job.filter?.keys ?? NO_KEYS;
  const filter = job.filter ? columnFilter(job.filter.columns, job.filter.resolved) : undefined;
  if (job.k === 0) {
    const count = countLive(job.lists, job.ordinals, job.alive, keys, job.cap, filter);
    return { id: job.id, count, ords: new Int32Array(0), scores: new Float64Array(0), matched: new Uint8Array(0) };
  }
  const top = job.exhaustive
    ? scorer.topK(qs, job.k, job.ordinals, job.alive, keys, filter)
    : maxScoreTopK(qs, job.k, job.alive, keys, filter);
  const sorted = top.sorted();
  const answer: ScoringAnswer = {
    id: job.id,
    count: sorted.length,
    ords: new Int32Array(sorted.length),
    scores: new Float64Array(sorted.length),
    matched: new Uint8Array(sorted.length),
  };
  sorted.forEach((h, i) => {
    answer.ords[i] = h.doc;
    answer.scores[i] = h.score;
    answer.matched[i] = h.matched;
  });
  return answer;
}

parentPort!.on('message', (job: ScoringJob) => {
  try {
    const answer = score(job);
    const buffers = [answer.ords.buffer, answer.scores.buffer, answer.matched.buffer] as ArrayBuffer[];
    parentPort!.postMessage(answer, buffers);
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
