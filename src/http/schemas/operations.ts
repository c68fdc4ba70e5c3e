// Operations schemas: the liveness and readiness answers.
import { Type } from 'typebox';

export const Health = Type.Object({ status: Type.String() }, { description: 'The process is alive' });
const Vocabulary = Type.Object({
  terms: Type.Integer({ description: 'distinct words held' }),
  limit: Type.Number({ description: 'the most it holds (REG_SEARCH_MAX_TERMS)' }),
  full: Type.Union([Type.Literal(false), Type.Literal('terms'), Type.Literal('memory')], {
    description:
      "false, or why new words are not indexed now: 'terms' (the bound) or 'memory' (the heap is nearly full)",
  }),
  items_cut: Type.Integer({
    description: 'items indexed without some of their words (per-item, per-agent or total bound) since start',
  }),
});

const Memory = Type.Object({
  items: Type.Integer({ description: 'items indexed' }),
  postings: Type.Integer({ description: 'postings (an item, a word) held' }),
  vectors: Type.Integer({ description: 'item vectors held (0 without embeddings)' }),
  lexical_bytes: Type.Integer({ description: 'approximate bytes of the words index and the items' }),
  vector_bytes: Type.Integer({
    description: 'approximate bytes of the vectors (the HNSW graph, 8-bit, and a Float32 copy)',
  }),
  bytes_per_item: Type.Integer({ description: 'all bytes over items' }),
  bytes_per_posting: Type.Integer({ description: 'lexical bytes over postings' }),
});

export const Readiness = Type.Object(
  {
    status: Type.String(),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'what the configuration turned off or ignored' })),
    search: Type.Object(
      {
        pending: Type.Integer({
          description: 'items the search index has not indexed or embedded yet (0 when caught up)',
        }),
        indexed: Type.Boolean({ description: 'true once the index is loaded (until then /readyz answers 503)' }),
        model: Type.String({ description: "the embedding model of the index ('none': lexical only)" }),
        vocabulary: Type.Object(
          { skills: Vocabulary, units: Vocabulary },
          { description: 'the distinct words each kind of item is indexed by, against their bound' },
        ),
        memory: Type.Object(
          { skills: Memory, units: Memory },
          { description: "what each kind's index holds and costs" },
        ),
      },
      { description: 'the search index' },
    ),
  },
  { description: 'The database answers and takes writes' },
);
