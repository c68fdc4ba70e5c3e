// Knowledge unit schemas: the list query, the contribution body (the domain's input schema), the answers
// around the domain's KnowledgeUnit, and verdicts.
import { Type, type Static } from 'typebox';
import { KnowledgeUnit, KnowledgeUnitInput, KnowledgeUnitSummary } from '../../domain/model.js';
import { closed, Limit, Offset, pageOf, Q } from './common.js';
import { filterSchemas, UNIT_FILTERS } from '../../domain/filters.js';

export const UnitListQuery = Type.Object(
  { q: Q, ...filterSchemas(UNIT_FILTERS), limit: Limit, offset: Offset },
  closed,
);
export type UnitListQuery = Static<typeof UnitListQuery>;

export const UnitBody = KnowledgeUnitInput;
export type UnitBody = Static<typeof UnitBody>;

export const UnitCreated = Type.Object(
  {
    data: KnowledgeUnit,
    quality_score: Type.Number(),
    warnings: Type.Optional(
      Type.Array(Type.String(), {
        description: 'soft findings about the content that did not block it (control characters in the content)',
      }),
    ),
  },
  { description: 'The unit, as stored' },
);
export const UnitOne = Type.Object({ data: KnowledgeUnit }, { description: 'The whole unit' });
export const UnitPage = pageOf(
  KnowledgeUnitSummary,
  'A page of unit summaries (long text cut and marked), in list order',
);

export const VerdictBody = Type.Object(
  { valid: Type.Boolean(), feedback: Type.Optional(Type.String({ maxLength: 5_000 })) },
  closed,
);
export type VerdictBody = Static<typeof VerdictBody>;

export const VerdictRecorded = Type.Object(
  { data: Type.Object({ id: Type.String(), validated: Type.Boolean(), feedback: Type.String() }) },
  { description: 'The verdict is recorded (it replaces an earlier one of this agent)' },
);

export const UnitDeleted = Type.Object(
  { data: Type.Object({ id: Type.String(), deleted: Type.Boolean() }) },
  { description: 'The unit and its verdicts are gone' },
);
