// Public API of the search module. Pure ranking core (analyzer, lexical, vectors, hybrid, engine) plus
// embedding providers (the only part that does I/O: model files, HTTP, worker threads).
export { Analyzer, DEFAULT_ANALYZER, foldText, type AnalyzerOptions } from './analyzer.js';
export { ENGLISH_STOP_WORDS, QUERY_STOP_WORDS, QUERY_GENERIC_WORDS, type StopWordList } from './stopwords.js';
export { SYNONYM_GROUPS } from './synonyms.js';
export { LexicalIndex, type FieldSpec, type LexicalConfig, type QueryTerm, type Hit, type SearchOptions } from './lexical.js';
export { ExactVectorIndex, IvfVectorIndex, type VectorIndex, type VectorHit } from './vectors.js';
export { UsearchVectorIndex, type UsearchOptions } from './vectors-usearch.js';
export { CooccurrenceModel, DEFAULT_COOCCURRENCE, type CooccurrenceOptions } from './cooccurrence.js';
export { DEFAULT_CONFIG, SEMANTIC_WEIGHTS, configFor, type SearchConfig } from './hybrid.js';
export { SearchEngine, MAX_QUERY_TERMS, type EngineSearchOptions, type EngineSearchResult } from './engine.js';
export type { RankedHit } from './scoring.js';
export { embeddingText, humanizeName, DEFAULT_EMBED_BODY_CHARS, DEFAULT_EMBED_MAX_CHARS, type SearchDocument } from './document.js';
export { noEmbeddings, normalizeInPlace, type EmbeddingProvider } from './embeddings/provider.js';
export { BuiltinEmbeddings, BUILTIN_ID } from './embeddings/builtin.js';
export { OpenAIEmbeddings, type OpenAIEmbeddingsOptions } from './embeddings/openai.js';
export { WorkerEmbeddings, type WorkerEmbeddingsOptions } from './embeddings/worker.js';
export { createProvider, providerSpecFromEnv, type ProviderSpec } from './embeddings/factory.js';
