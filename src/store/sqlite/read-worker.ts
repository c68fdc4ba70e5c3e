// A read-only connection in a worker thread, answering the list and search queries of a ReadPool.
import { parentPort, workerData } from 'node:worker_threads';
import { openReader, statementCache } from './connection.js';
import { listSkills, listUnits } from './lists.js';
import type { ReadReply, ReadRequest, ReaderSetup } from './read-pool.js';

const setup = workerData as ReaderSetup;
const db = openReader(setup.filename, setup.cacheKib);
const prepare = statementCache(db);

parentPort!.on('message', ({ id, request }: { id: number; request: ReadRequest }) => {
  let reply: ReadReply;
  try {
    // One read transaction: the total and the page come from the same snapshot, whatever commits meanwhile.
    const page = db.transaction(() =>
      request.kind === 'units' ? listUnits(prepare, request.query, setup.tuning) : listSkills(prepare, request.query),
    )();
    reply = { id, page };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
