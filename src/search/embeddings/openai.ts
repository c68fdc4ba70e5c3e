// An OpenAI-compatible embeddings endpoint: POST {url}/v1/embeddings with { model, input }, answer
// { data: [{ index, embedding }] }. Works with OpenAI, vLLM, Ollama, LM Studio, text-embeddings-inference.
import { normalizeInPlace, type EmbeddingProvider } from './provider.js';

export interface OpenAIEmbeddingsOptions {
  /** Base URL without the /v1/embeddings suffix, e.g. http://127.0.0.1:8080. */
  url: string;
  model: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string;
  /** Known vector length; when 0 it is learned from the first answer. */
  dimensions?: number;
  /** Texts per request. */
  batchSize?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export class OpenAIEmbeddings implements EmbeddingProvider {
  readonly id: string;
  dimensions: number;
  private readonly opts: Required<Omit<OpenAIEmbeddingsOptions, 'apiKey' | 'dimensions'>> & { apiKey?: string };

  constructor(options: OpenAIEmbeddingsOptions) {
    this.opts = { batchSize: 64, timeoutMs: 30_000, fetch: globalThis.fetch, ...options, url: options.url.replace(/\/+$/, '').replace(/\/v1$/, '') };
    this.id = `openai:${options.model}@${this.opts.url}`;
    this.dimensions = options.dimensions ?? 0;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) {
      const input = texts.slice(i, i + this.opts.batchSize).map((t) => (t.trim() === '' ? ' ' : t));
      const res = await this.opts.fetch(`${this.opts.url}/v1/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.opts.model, input }),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
      if (!res.ok) throw new Error(`embeddings endpoint answered HTTP ${res.status}`);
      const json = (await res.json()) as { data?: Array<{ index?: number; embedding?: number[] }> };
      const data = [...(json.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      if (data.length !== input.length) throw new Error(`embeddings endpoint returned ${data.length} vectors for ${input.length} texts`);
      for (const d of data) {
        if (!Array.isArray(d.embedding)) throw new Error('embeddings endpoint returned an item without an embedding');
        if (this.dimensions === 0) this.dimensions = d.embedding.length;
        if (d.embedding.length !== this.dimensions) throw new Error(`embedding of ${d.embedding.length} dimensions, expected ${this.dimensions}`);
        out.push(normalizeInPlace(Float32Array.from(d.embedding)));
      }
    }
    return out;
  }
}
