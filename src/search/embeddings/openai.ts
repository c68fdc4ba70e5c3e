// An OpenAI-compatible embeddings endpoint: POST {url}/v1/embeddings with { model, input }, answer
// { data: [{ index, embedding }] }. Works with OpenAI, vLLM, Ollama, LM Studio, text-embeddings-inference.
// The endpoint is not trusted: an answer is read as a stream up to a byte bound (then the request is
// aborted), and every vector must have the expected length and only finite numbers. The length is the
// configured one, else the first answer's, and then fixed.
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
  /** Bytes one answer may have; a longer one is aborted. */
  maxResponseBytes?: number;
  fetch?: typeof fetch;
}

/** Vectors longer than this are refused whatever the endpoint says (the largest models have 4,096). */
export const MAX_DIMENSIONS = 8_192;
const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The base URL as requests use it: no trailing slash, no /v1. */
export function endpointBase(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

export class OpenAIEmbeddings implements EmbeddingProvider {
  readonly id: string;
  dimensions: number;
  private readonly opts: Required<Omit<OpenAIEmbeddingsOptions, 'apiKey' | 'dimensions'>> & { apiKey?: string };

  constructor(options: OpenAIEmbeddingsOptions) {
    this.opts = {
      batchSize: 64,
      timeoutMs: 30_000,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      fetch: globalThis.fetch,
      ...options,
      url: endpointBase(options.url),
    };
    this.id = `openai:${options.model}@${this.opts.url}`;
    this.dimensions = options.dimensions ?? 0;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) {
      const input = texts.slice(i, i + this.opts.batchSize).map((t) => (t.trim() === '' ? ' ' : t));
      out.push(...this.vectorsOf(await this.request(input), input.length));
    }
    return out;
  }

  private async request(input: string[]): Promise<unknown> {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`embeddings endpoint did not answer within ${this.opts.timeoutMs} ms`)),
      this.opts.timeoutMs,
    );
    try {
      const res = await this.opts.fetch(`${this.opts.url}/v1/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.opts.model, input }),
        signal: abort.signal,
      });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`embeddings endpoint answered HTTP ${res.status}`);
      }
      const text = await readBounded(res, this.opts.maxResponseBytes, abort);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error('embeddings endpoint answered something other than JSON');
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** The answer's vectors in input order, each checked and L2-normalized; throws on anything else. */
  private vectorsOf(json: unknown, count: number): Float32Array[] {
    const data = (json as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new Error('embeddings endpoint answered without a data list');
    if (data.length !== count)
      throw new Error(`embeddings endpoint returned ${data.length} vectors for ${count} texts`);
    const ordered = new Array<Float32Array | undefined>(count);
    for (const [position, item] of data.entries()) {
      const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
      const at = index === undefined ? position : index;
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= count || ordered[at])
        throw new Error('embeddings endpoint returned a bad or repeated index');
      ordered[at] = this.vector(embedding);
    }
    return ordered as Float32Array[];
  }

  private vector(embedding: unknown): Float32Array {
    if (!Array.isArray(embedding)) throw new Error('embeddings endpoint returned an item without an embedding');
    const expected = this.dimensions || embedding.length;
    if (embedding.length !== expected || expected === 0 || expected > MAX_DIMENSIONS) {
      throw new Error(
        `embedding of ${embedding.length} dimensions, expected ${this.dimensions || `1 to ${MAX_DIMENSIONS}`}`,
      );
    }
    const v = new Float32Array(expected);
    for (let i = 0; i < expected; i++) {
      const x = embedding[i] as unknown;
      // A number beyond float32's range becomes Infinity here, and is refused with the others.
      v[i] = typeof x === 'number' ? x : NaN;
      if (!Number.isFinite(v[i]!)) throw new Error('embeddings endpoint returned a value that is not a finite number');
    }
    this.dimensions = expected;
    return normalizeInPlace(v);
  }
}

/** The body as text, at most `limit` bytes: beyond, the request is aborted and this throws. */
async function readBounded(res: Response, limit: number, abort: AbortController): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    abort.abort();
    throw new Error(`embeddings endpoint answered ${declared} bytes, more than ${limit}`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      abort.abort();
      await reader.cancel().catch(() => undefined);
      throw new Error(`embeddings endpoint answered more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
