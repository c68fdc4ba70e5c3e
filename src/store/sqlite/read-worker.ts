// A read-only connection in a worker thread, answering the list queries of a ReadPool with the reads
// every backend shares; each list reads its total and its page in one read transaction (one snapshot).
import { parentPort, workerData } from 'node:worker_threads';
import { skillReads } from '../reads/skills.js';
import { unitReads } from '../reads/units.js';
import { openReader } from './connection.js';
import { sqliteDb } from './db.js';
import type { ReadReply, ReadRequest, ReaderSetup } from './read-pool.js';

const setup = workerData as ReaderSetup;
const db = sqliteDb(openReader(setup.filename, setup.cacheKib), { readTransactions: true });
const units = unitReads(db);
const skills = skillReads(db);

parentPort!.on('message', ({ id, request }: { id: number; request: ReadRequest }) => {
  const page = request.kind === 'units' ? units.listUnits(request.query) : skills.listSkills(request.query);
  page.then(
    (found) => parentPort!.postMessage({ id, page: found } satisfies ReadReply),
    (error: unknown) =>
      parentPort!.postMessage({
        id,
        error: error instanceof Error ? error.message : String(error),
      } satisfies ReadReply),
  );
});
