// Operations schemas: the liveness and readiness answers.
import { Type } from 'typebox';

export const Health = Type.Object({ status: Type.String() }, { description: 'The process is alive' });
export const Readiness = Type.Object(
  {
    status: Type.String(),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'what the configuration turned off or ignored' })),
    search: Type.Object(
      {
        pending: Type.Integer({ description: 'items the search index has not indexed or embedded yet (0 when caught up)' }),
        indexed: Type.Boolean({ description: 'false while the index is built: searches then use the database full-text search' }),
        model: Type.String({ description: "the embedding model of the index ('none': lexical only)" }),
      },
      { description: 'the search index' },
    ),
  },
  { description: 'The database answers and takes writes' },
);
