// The embedding provider for a configured choice (REG_EMBEDDINGS and its options, read with the rest of the
// configuration in src/config/variables.ts):
//   REG_EMBEDDINGS=none (the default)        no semantic evidence (lexical search only)
//   REG_EMBEDDINGS=builtin                   USE-lite, offline, from node_modules (builtin.ts); measured on
//       20,000 real skills: +0.008 keyword MRR@10, none on task queries, search p99 95 ms instead of 12 ms,
//       and 6-20 items/s embedded in the background on two cores, competing with requests
//   REG_EMBEDDINGS=openai                    an OpenAI-compatible endpoint:
//       REG_EMBEDDINGS_URL (base URL), REG_EMBEDDINGS_MODEL, REG_EMBEDDINGS_API_KEY (optional),
//       REG_EMBEDDINGS_DIMENSIONS (optional, 1 to MAX_DIMENSIONS; learned from the first answer otherwise)
import { BuiltinEmbeddings } from './builtin.js';
import { OpenAIEmbeddings } from './openai.js';
import { noEmbeddings, type EmbeddingProvider } from './provider.js';

export type ProviderSpec =
  | { kind: 'none' }
  | { kind: 'builtin' }
  | { kind: 'openai'; url: string; model: string; apiKey?: string; dimensions?: number };

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
