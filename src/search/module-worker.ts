// A worker thread running one of this module's files: its built `.js` beside the caller, or, when the
// caller runs from source under tsx (tests, benches, the lab), its `.ts` with tsx registered in the worker
// first (loader hooks of the main thread do not reach a worker on Node 20).
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** A worker for the file `name` (without extension) beside `base`, the caller's `import.meta.url`. */
export function moduleWorker(name: string, base: string, options: WorkerOptions = {}): Worker {
  const fromSource = base.endsWith('.ts');
  const url = new URL(`${name}${fromSource ? '.ts' : '.js'}`, base);
  if (!fromSource) return new Worker(url, options);
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
