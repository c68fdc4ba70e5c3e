// Chooses the embedding provider from the environment:
//   REG_EMBEDDINGS=none                      no semantic evidence (lexical search only)
//   REG_EMBEDDINGS=builtin (the default)     USE-lite, offline, from node_modules (builtin.ts)
//   REG_EMBEDDINGS=openai                    an OpenAI-compatible endpoint:
//       REG_EMBEDDINGS_URL (base URL), REG_EMBEDDINGS_MODEL, REG_EMBEDDINGS_API_KEY (optional),
//       REG_EMBEDDINGS_DIMENSIONS (optional; learned from the first answer otherwise)
import { BuiltinEmbeddings } from './builtin.js';
import { OpenAIEmbeddings } from './openai.js';
import { noEmbeddings, type EmbeddingProvider } from './provider.js';

export type ProviderSpec =
  | { kind: 'none' }
  | { kind: 'builtin' }
  | { kind: 'openai'; url: string; model: string; apiKey?: string; dimensions?: number };

export function providerSpecFromEnv(env: Record<string, string | undefined> = process.env): ProviderSpec {
  const kind = (env.REG_EMBEDDINGS ?? 'builtin').trim().toLowerCase();
  if (kind === 'none' || kind === 'off' || kind === '') return { kind: 'none' };
  if (kind === 'builtin') return { kind: 'builtin' };
  if (kind === 'openai') {
    const url = env.REG_EMBEDDINGS_URL;
    const model = env.REG_EMBEDDINGS_MODEL;
    if (!url || !model) throw new Error('REG_EMBEDDINGS=openai needs REG_EMBEDDINGS_URL and REG_EMBEDDINGS_MODEL');
    const dims = env.REG_EMBEDDINGS_DIMENSIONS ? Number(env.REG_EMBEDDINGS_DIMENSIONS) : undefined;
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
