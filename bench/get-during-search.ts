// Whether searches hold up other requests: against a running service loaded with the benchmark's corpus,
// a unit is read by id from one client alone, then again while 8 connections search for the two most
// frequent words (the costliest queries). With scoring on the event loop every read waits behind the
// searches being scored; with scoring workers (REG_SEARCH_WORKERS) it waits only for the rest of them.
//
//   npx tsx bench/get-during-search.ts <base URL> [units in the corpus=1000000] [seconds=10] [filter]
//
// filter: appended to the searches' query string, e.g. `&domain=databases` (a filtered search).
import autocannon from 'autocannon';
import { corpus, hash32, unitId, worstCaseQueries } from './corpus.js';

const base = process.argv[2] ?? '';
if (base === '') throw new Error('usage: get-during-search.ts <base URL> [units] [seconds]');
const n = Number(process.argv[3] ?? 1_000_000);
const seconds = Number(process.argv[4] ?? 10);
const filter = process.argv[5] ?? '';
const c = corpus();
const ids = Array.from({ length: 2_000 }, (_, k) => `/v1/knowledge/${unitId(c, hash32(c.seed, 101, k) % n)}`);
const searches = worstCaseQueries(c).map((q) => `/v1/knowledge?q=${encodeURIComponent(q)}&limit=20${filter}`);

function cycle(paths: string[]): autocannon.Request[] {
  let next = 0;
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
}

/** Runs the paths for the given time; answers req/s and the 2xx latencies' p50, p99 and max in ms. */
async function run(paths: string[], connections: number) {
  const latencies: number[] = [];
  let failed = 0;
  const instance = autocannon({ url: base, connections, duration: seconds, requests: cycle(paths), timeout: 30 });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else failed++;
  });
  await instance;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? NaN;
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    rps: Math.round(latencies.length / seconds),
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    max: round(latencies[latencies.length - 1] ?? NaN),
    failed,
  };
}

const alone = await run(ids, 1);
const [beside, searching] = await Promise.all([run(ids, 1), run(searches, 8)]);
console.log(JSON.stringify({ getAlone: alone, getBesideSearches: beside, searches: searching }));
