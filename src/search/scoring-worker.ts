// A scoring worker of the scoring pool (scoring-pool.ts): the lexical top-k of one query at a time, by
// the strategy the index chose, over postings lists read in place (shared memory) or copied into the job.
// It keeps nothing between jobs but its score buffers.
import { parentPort } from 'node:worker_threads';
import { maxScoreTopK } from './maxscore.js';
import { ScoreAccumulator, type QueryList } from './top-k.js';
import type { ScoringAnswer, ScoringJob } from './scoring-pool.js';

const scorer = new ScoreAccumulator();
/** Keys are read only by a filter, and a job has none. */
const NO_KEYS = new Float64Array(0);

function score(job: ScoringJob): ScoringAnswer {
  const qs: QueryList[] = job.lists.map((p) => ({ p, w: p.w }));
  const top = job.exhaustive
    ? scorer.topK(qs, job.k, job.ordinals, job.alive, NO_KEYS)
    : maxScoreTopK(qs, job.k, job.alive, NO_KEYS);
  const sorted = top.sorted();
  const answer: ScoringAnswer = {
    id: job.id,
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
