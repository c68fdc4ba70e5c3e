// Chooses the embedding provider from the environment:
//   REG_EMBEDDINGS=none (the default)        no semantic evidence (lexical search only)
//   REG_EMBEDDINGS=builtin                   USE-lite, offline, from node_modules (builtin.ts); measured on
//       20,000 real skills: +0.008 keyword MRR@10, none on task queries, search p99 95 ms instead of 12 ms,
//       and 6-20 items/s embedded in the background on two cores, competing with requests
//   REG_EMBEDDINGS=openai                    an OpenAI-compatible endpoint:
//       REG_EMBEDDINGS_URL (base URL), REG_EMBEDDINGS_MODEL, REG_EMBEDDINGS_API_KEY (optional),
//       REG_EMBEDDINGS_DIMENSIONS (optional, 1 to MAX_DIMENSIONS; learned from the first answer otherwise)
import { BuiltinEmbeddings } from './builtin.js';
import { MAX_DIMENSIONS, OpenAIEmbeddings } from './openai.js';
import { noEmbeddings, type EmbeddingProvider } from './provider.js';

export type ProviderSpec =
  | { kind: 'none' }
  | { kind: 'builtin' }
  | { kind: 'openai'; url: string; model: string; apiKey?: string; dimensions?: number };

export function providerSpecFromEnv(env: Record<string, string | undefined> = process.env): ProviderSpec {
  const kind = (env.REG_EMBEDDINGS ?? 'none').trim().toLowerCase();
  if (kind === 'none' || kind === 'off' || kind === '') return { kind: 'none' };
  if (kind === 'builtin') return { kind: 'builtin' };
  if (kind === 'openai') {
    const url = env.REG_EMBEDDINGS_URL;
    const model = env.REG_EMBEDDINGS_MODEL;
    if (!url || !model) throw new Error('REG_EMBEDDINGS=openai needs REG_EMBEDDINGS_URL and REG_EMBEDDINGS_MODEL');
    const dims = env.REG_EMBEDDINGS_DIMENSIONS ? Number(env.REG_EMBEDDINGS_DIMENSIONS) : undefined;
    if (dims !== undefined && !(Number.isInteger(dims) && dims >= 1 && dims <= MAX_DIMENSIONS)) {
      throw new Error(`REG_EMBEDDINGS_DIMENSIONS must be an integer from 1 to ${MAX_DIMENSIONS} (got ${JSON.stringify(env.REG_EMBEDDINGS_DIMENSIONS)})`);
    }
    return { kind: 'openai', url, model, ...(env.REG_EMBEDDINGS_API_KEY ? { apiKey: env.REG_EMBEDDINGS_API_KEY } : {}), ...(dims ? { dimensions: dims } : {}) };
  }
  throw new Error(`REG_EMBEDDINGS must be none, builtin or openai (got ${JSON.stringify(env.REG_EMBEDDINGS)})`);
}

export function createProvider(spec: ProviderSpec): EmbeddingProvider {
  switch (spec.kind) {
    case 'none':
      return noEmbeddings;
    case 'builtin':
      return new BuiltinEmbeddings();
    case 'openai':
      return new OpenAIEmbeddings(spec);
  }
}
