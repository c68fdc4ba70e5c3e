// Operations schemas: the liveness and readiness answers.
import { Type } from 'typebox';

export const Health = Type.Object({ status: Type.String() }, { description: 'The process is alive' });
const Vocabulary = Type.Object({
  terms: Type.Integer({ description: 'distinct words held' }),
  limit: Type.Number({ description: 'the most it holds (REG_SEARCH_MAX_TERMS)' }),
  full: Type.Union([Type.Literal(false), Type.Literal('terms'), Type.Literal('memory')], {
    description: "false, or why new words are not indexed now: 'terms' (the bound) or 'memory' (the heap is nearly full)",
  }),
  items_cut: Type.Integer({ description: 'items indexed without some of their words (per-item, per-agent or total bound) since start' }),
});

export const Readiness = Type.Object(
  {
    status: Type.String(),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'what the configuration turned off or ignored' })),
    search: Type.Object(
      {
        pending: Type.Integer({ description: 'items the search index has not indexed or embedded yet (0 when caught up)' }),
        indexed: Type.Boolean({ description: 'false while the index is built: searches then use the database full-text search' }),
        model: Type.String({ description: "the embedding model of the index ('none': lexical only)" }),
        vocabulary: Type.Object(
          { skills: Vocabulary, units: Vocabulary },
          { description: 'the distinct words each kind of item is indexed by, against their bound' },
        ),
      },
      { description: 'the search index' },
    ),
  },
  { description: 'The database answers and takes writes' },
);
