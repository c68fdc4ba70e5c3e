// Runs an embedding provider on a worker thread. Messages in: { id, texts }; out: { id, vectors } (the
// vectors' buffers transferred) or { id, error }. The provider is made from workerData (see factory.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { createProvider, type ProviderSpec } from './factory.js';

const provider = createProvider(workerData as ProviderSpec);
parentPort!.on('message', async (msg: { id: number; texts: string[] }) => {
  try {
    const vectors = await provider.embed(msg.texts);
    parentPort!.postMessage(
      { id: msg.id, vectors },
      vectors.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (err) {
    parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
