// A read-only connection in a worker thread, answering the list and search queries of a ReadPool.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { ReadReply, ReadRequest, ReaderSetup } from './read-pool.js';
import { listSkills } from './skill-lists.js';
import { listUnits } from './unit-lists.js';

const setup = workerData as ReaderSetup;
const db = new Database(setup.filename, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma(`cache_size = -${setup.cacheKib}`);
const statements = new Map<string, Statement>();
const prepare = (sql: string) => {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
};

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
