// Lists on SQLite run in worker threads, each with a read-only connection of its own (WAL lets them read
// while the main thread writes). better-sqlite3 is synchronous: on the main thread a list whose filters
// make it walk many rows holds up every other request. In workers lists use every core, and a get or a
// write is never queued behind one.
import { Worker } from 'node:worker_threads';
import type { SkillSummary, UnitSummary } from '../../domain/summaries.js';
import { StoreUnavailableError, type Page, type SkillQuery, type UnitQuery } from '../store.js';

export type ReadRequest = { kind: 'units'; query: UnitQuery } | { kind: 'skills'; query: SkillQuery };
export type ReadReply = { id: number; page: Page<unknown> } | { id: number; error: string };

export interface ReaderSetup {
  filename: string;
  /** Page cache of each reader, KiB. */
  cacheKib: number;
}

export interface ReadPoolOptions {
  workers: number;
  /** Reads waiting for a worker at most; beyond it a read is refused as unavailable (503). */
  maxWaiting: number;
}

interface Job {
  request: ReadRequest;
  resolve: (page: Page<unknown>) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  job: (Job & { id: number }) | null;
}

// Under tsx (tests, `npm run dev`) the worker must load TypeScript too; the built service runs plain .js.
const fromSource = import.meta.url.endsWith('.ts');
const BOOT = `
const { workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
  await import(workerData.entry);
})();`;

export class ReadPool {
  private readonly readers: Reader[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly setup: ReaderSetup,
    private readonly options: ReadPoolOptions,
  ) {
    for (let i = 0; i < options.workers; i++) this.readers.push(this.spawn());
  }

  listUnits(query: UnitQuery): Promise<Page<UnitSummary>> {
    return this.run({ kind: 'units', query }) as Promise<Page<UnitSummary>>;
  }

  listSkills(query: SkillQuery): Promise<Page<SkillSummary>> {
    return this.run({ kind: 'skills', query }) as Promise<Page<SkillSummary>>;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new StoreUnavailableError('the store is closing'));
    await Promise.all(this.readers.map((r) => r.worker.terminate()));
  }

  private run(request: ReadRequest): Promise<Page<unknown>> {
    if (this.closed) return Promise.reject(new StoreUnavailableError('the store is closed'));
    if (this.waiting.length >= this.options.maxWaiting) {
      return Promise.reject(new StoreUnavailableError(`${this.waiting.length} lists are already waiting`));
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const reader of this.readers) {
      if (!reader.job && this.waiting.length > 0) {
        const job = { ...this.waiting.shift()!, id: this.nextId++ };
        reader.job = job;
        reader.worker.postMessage({ id: job.id, request: job.request });
      }
      // A worker with a job keeps the process alive until it answers; an idle one does not.
      if (reader.job) reader.worker.ref();
      else reader.worker.unref();
    }
  }

  private spawn(): Reader {
    const entry = new URL(fromSource ? './read-worker.ts' : './read-worker.js', import.meta.url).href;
    const tsxApi = fromSource ? import.meta.resolve('tsx/esm/api') : null;
    const worker = new Worker(BOOT, { eval: true, workerData: { ...this.setup, entry, tsxApi } });
    const reader: Reader = { worker, job: null };
    worker.on('message', (reply: ReadReply) => {
      const job = reader.job;
      reader.job = null;
      if (job && job.id === reply.id) {
        if ('page' in reply) job.resolve(reply.page);
        else job.reject(new Error(`list failed: ${reply.error}`));
      }
      this.dispatch();
    });
    // A reader that dies fails its own job only, and is replaced.
    worker.on('error', (error) => {
      reader.job?.reject(error);
      reader.job = null;
    });
    worker.on('exit', () => {
      reader.job?.reject(new Error('a list worker stopped'));
      reader.job = null;
      if (this.closed) return;
      const index = this.readers.indexOf(reader);
      if (index !== -1) this.readers[index] = this.spawn();
      this.dispatch();
    });
    worker.unref();
    return reader;
  }
}
