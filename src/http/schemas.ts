// TypeBox schemas: one source for request validation, handler types, response serialization and OpenAPI.
import { Type, type Static, type TSchema } from 'typebox';
import {
  AGENT_ID_PATTERN,
  KEY_TIERS,
  REPUTATION_ACTIONS,
  SCOPES,
  UNIT_TYPES,
  VISIBILITIES,
} from '../domain/model.js';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const closed = { additionalProperties: false } as const;

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { description: 'Error envelope' },
);

export const AgentId = Type.String({ minLength: 1, maxLength: 128, pattern: AGENT_ID_PATTERN });
const Scope = Type.Enum([...SCOPES]);
const KeyTier = Type.Enum([...KEY_TIERS]);
const UnitType = Type.Enum([...UNIT_TYPES]);

// ---- auth ----------------------------------------------------------------------------------------

export const RegisterBody = Type.Object(
  {
    agent_id: AgentId,
    scopes: Type.Array(Scope, { minItems: 1, maxItems: 3, uniqueItems: true }),
    tier: KeyTier,
  },
  closed,
);
export type RegisterBody = Static<typeof RegisterBody>;

export const ApiKeyCreated = Type.Object({
  data: Type.Object({
    api_key: Type.String(),
    key_prefix: Type.String(),
    scopes: Type.Array(Scope),
    tier: KeyTier,
    created_at: Timestamp,
  }),
  message: Type.String(),
});

export const RevokeBody = Type.Object({ key_prefix: Type.String({ minLength: 8, maxLength: 8 }) }, closed);
export type RevokeBody = Static<typeof RevokeBody>;

export const Revoked = Type.Object({ data: Type.Object({ revoked: Type.Boolean(), key_prefix: Type.String() }) });

// ---- lists ---------------------------------------------------------------------------------------

const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'page size, 1..100' }));
const Offset = Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }));
const MinQuality = Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'minimum quality score' }));
const Q = Type.Optional(Type.String({ maxLength: 500, description: 'free text, searched as plain words' }));
const Domain = Type.Optional(Type.String({ minLength: 1, maxLength: 100 }));

export const SkillListQuery = Type.Object(
  {
    q: Q,
    domain: Domain,
    tags: Type.Optional(Type.String({ maxLength: 1100, description: 'comma-separated; a skill must carry every tag' })),
    min_quality: MinQuality,
    limit: Limit,
    offset: Offset,
  },
  closed,
);
export type SkillListQuery = Static<typeof SkillListQuery>;

export const UnitListQuery = Type.Object(
  {
    q: Q,
    types: Type.Optional(Type.String({ maxLength: 200, description: 'comma-separated unit types (any of)' })),
    domain: Domain,
    min_quality: MinQuality,
    limit: Limit,
    offset: Offset,
  },
  closed,
);
export type UnitListQuery = Static<typeof UnitListQuery>;

const pageOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer() });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, closed);
export type IdParams = Static<typeof IdParams>;
export const AgentParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 256 }) }, closed);
export type AgentParams = Static<typeof AgentParams>;

// ---- skills --------------------------------------------------------------------------------------

export const SkillBody = Type.Object(
  {
    skill_md_content: Type.String({ minLength: 1, maxLength: 100_000 }),
    visibility: Type.Enum([...VISIBILITIES]),
  },
  closed,
);
export type SkillBody = Static<typeof SkillBody>;

export const Skill = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  domain: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  license: Nullable(Type.String()),
  visibility: Type.Enum([...VISIBILITIES]),
  agent_id: Type.String(),
  quality_score: Type.Number(),
  skill_md_content: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SkillCreated = Type.Object({ data: Skill, warnings: Type.Array(Type.String()) });
export const SkillOne = Type.Object({ data: Skill });
export const SkillPage = pageOf(Skill);

// ---- knowledge units -----------------------------------------------------------------------------

export const UnitBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    type: UnitType,
    domain: Type.String({ minLength: 1, maxLength: 100 }),
    content: Type.Object(
      {
        description: Type.String({ minLength: 1, maxLength: 20_000 }),
        examples: Type.Array(Type.String({ minLength: 1, maxLength: 5_000 }), { maxItems: 50 }),
      },
      closed,
    ),
    metadata: Type.Object(
      {
        source: Type.String({ minLength: 1, maxLength: 500 }),
        confidence: Type.Number({ minimum: 0, maximum: 1 }),
      },
      closed,
    ),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20 })),
  },
  closed,
);
export type UnitBody = Static<typeof UnitBody>;

export const Unit = Type.Object({
  id: Type.String(),
  agent_id: Type.String(),
  title: Type.String(),
  type: UnitType,
  domain: Type.String(),
  content: Type.Object({ description: Type.String(), examples: Type.Array(Type.String()) }),
  metadata: Type.Object({ source: Type.String(), confidence: Type.Number() }),
  tags: Type.Array(Type.String()),
  quality_score: Type.Number(),
  validations: Type.Object({ valid: Type.Integer(), invalid: Type.Integer() }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const UnitCreated = Type.Object({ data: Unit, quality_score: Type.Number() });
export const UnitOne = Type.Object({ data: Unit });
export const UnitPage = pageOf(Unit);

export const VerdictBody = Type.Object(
  { valid: Type.Boolean(), feedback: Type.Optional(Type.String({ maxLength: 5_000 })) },
  closed,
);
export type VerdictBody = Static<typeof VerdictBody>;

export const VerdictRecorded = Type.Object({
  data: Type.Object({ id: Type.String(), validated: Type.Boolean(), feedback: Type.String() }),
});

export const UnitDeleted = Type.Object({ data: Type.Object({ id: Type.String(), deleted: Type.Boolean() }) });

// ---- reputation and export -----------------------------------------------------------------------

const ReputationEvent = Type.Object({
  action: Type.Enum([...REPUTATION_ACTIONS]),
  delta: Type.Number(),
  target_id: Type.String(),
  timestamp: Timestamp,
});

export const ReputationProfile = Type.Object({
  agent_id: Type.String(),
  score: Type.Number(),
  contributions: Type.Integer(),
  validations: Type.Integer(),
  history: Type.Array(ReputationEvent, { description: 'the most recent items, newest first' }),
  updated_at: Timestamp,
});
export const ReputationOne = Type.Object({ data: ReputationProfile });

export const ExportDocument = Type.Object({
  data: Type.Object({
    agent_id: Type.String(),
    exported_at: Timestamp,
    keys: Type.Array(
      Type.Object({
        key_prefix: Type.String(),
        scopes: Type.Array(Scope),
        tier: KeyTier,
        created_at: Timestamp,
        revoked_at: Nullable(Timestamp),
      }),
    ),
    knowledge_units: Type.Array(Unit),
    skills: Type.Array(Skill),
    validations: Type.Array(
      Type.Object({
        unit_id: Type.String(),
        agent_id: Type.String(),
        valid: Type.Boolean(),
        feedback: Type.String(),
        created_at: Timestamp,
        updated_at: Timestamp,
      }),
    ),
    reputation: Type.Object({
      agent_id: Type.String(),
      score: Type.Number(),
      contributions: Type.Integer(),
      validations: Type.Integer(),
      history: Type.Array(ReputationEvent, { description: 'every item, oldest first' }),
      updated_at: Timestamp,
    }),
  }),
});

// ---- operations ----------------------------------------------------------------------------------

export const Health = Type.Object({ status: Type.String() });

/** The error responses a route can give, for its OpenAPI entry. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
