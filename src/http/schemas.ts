// TypeBox schemas: one source for request validation, handler types, response serialization and OpenAPI.
// The entities themselves (units, skills, profiles) are the domain's schemas (domain/model.ts); this file
// adds what the API wraps around them: request bodies, query strings, envelopes and pages.
import { Type, type Static, type TSchema } from 'typebox';
import {
  AGENT_ID_PATTERN,
  KeyMetadata,
  KeyTierSchema,
  KnowledgeUnit,
  KnowledgeUnitInput,
  KnowledgeUnitSummary,
  ReputationEvent,
  ReputationProfile,
  ScopeSchema,
  Skill,
  SkillSummary,
  Verdict,
  VisibilitySchema,
} from '../domain/model.js';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
const closed = { additionalProperties: false } as const;

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { description: 'Error envelope' },
);

export const AgentId = Type.String({ minLength: 1, maxLength: 128, pattern: AGENT_ID_PATTERN });

// ---- auth ----------------------------------------------------------------------------------------

export const RegisterBody = Type.Object(
  {
    agent_id: AgentId,
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: 3, uniqueItems: true }),
    tier: KeyTierSchema,
  },
  closed,
);
export type RegisterBody = Static<typeof RegisterBody>;

export const ApiKeyCreated = Type.Object(
  {
    data: Type.Object({
      api_key: Type.String({ description: 'the raw key, shown only in this answer' }),
      key_prefix: Type.String(),
      scopes: Type.Array(ScopeSchema),
      tier: KeyTierSchema,
      created_at: Timestamp,
    }),
    message: Type.String(),
  },
  { description: 'The new API key (shown once)' },
);

export const RevokeBody = Type.Object({ key_prefix: Type.String({ minLength: 8, maxLength: 8 }) }, closed);
export type RevokeBody = Static<typeof RevokeBody>;

export const Revoked = Type.Object(
  { data: Type.Object({ revoked: Type.Boolean(), key_prefix: Type.String() }) },
  { description: 'The key is revoked' },
);

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

const pageOf = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      total: Type.Integer({ description: 'every match, not just this page' }),
      offset: Type.Integer(),
      limit: Type.Integer(),
    },
    { description },
  );

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, closed);
export type IdParams = Static<typeof IdParams>;
export const AgentParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 256 }) }, closed);
export type AgentParams = Static<typeof AgentParams>;

// ---- skills --------------------------------------------------------------------------------------

export const SkillBody = Type.Object(
  {
    skill_md_content: Type.String({ minLength: 1, maxLength: 100_000 }),
    visibility: VisibilitySchema,
  },
  closed,
);
export type SkillBody = Static<typeof SkillBody>;

export const SkillCreated = Type.Object(
  { data: Skill, warnings: Type.Array(Type.String(), { description: 'findings about the SKILL.md that did not block it' }) },
  { description: 'The skill, as stored' },
);
export const SkillOne = Type.Object({ data: Skill }, { description: 'The skill, with its SKILL.md' });
export const SkillPage = pageOf(SkillSummary, 'A page of skill summaries (no SKILL.md), in list order');

// ---- knowledge units -----------------------------------------------------------------------------

export const UnitBody = KnowledgeUnitInput;
export type UnitBody = Static<typeof UnitBody>;

export const UnitCreated = Type.Object({ data: KnowledgeUnit, quality_score: Type.Number() }, { description: 'The unit, as stored' });
export const UnitOne = Type.Object({ data: KnowledgeUnit }, { description: 'The whole unit' });
export const UnitPage = pageOf(KnowledgeUnitSummary, 'A page of unit summaries (long text cut and marked), in list order');

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

// ---- reputation and export -----------------------------------------------------------------------

export const ReputationOne = Type.Object({ data: ReputationProfile }, { description: "The agent's reputation profile" });

export const ExportDocument = Type.Object(
  {
    data: Type.Object({
      agent_id: Type.String(),
      exported_at: Timestamp,
      keys: Type.Array(KeyMetadata),
      knowledge_units: Type.Array(KnowledgeUnit),
      skills: Type.Array(Skill),
      validations: Type.Array(Verdict),
      reputation: Type.Object({
        ...ReputationProfile.properties,
        history: Type.Array(ReputationEvent, { description: 'every item, oldest first' }),
      }),
    }),
  },
  { description: 'Everything tied to the agent, streamed' },
);

// ---- operations ----------------------------------------------------------------------------------

export const Health = Type.Object({ status: Type.String() }, { description: 'The process is alive' });
export const Readiness = Type.Object(
  {
    status: Type.String(),
    warnings: Type.Optional(Type.Array(Type.String(), { description: 'what the configuration turned off or ignored' })),
  },
  { description: 'The database answers and takes writes' },
);

/**
 * The schemas the OpenAPI document names (components.schemas), so generated clients get a `Skill` type.
 * Route schemas stay plain TypeBox (no $id, so nothing changes for validation or serialization): the
 * document generator puts a $ref wherever a schema below appears whole (openapi.ts). Outer shapes first.
 */
export const NAMED_SCHEMAS: Readonly<Record<string, TSchema>> = {
  Error: ErrorBody,
  RegisterRequest: RegisterBody,
  ApiKeyCreated,
  RevokeRequest: RevokeBody,
  Revoked,
  SkillRequest: SkillBody,
  SkillCreated,
  SkillResponse: SkillOne,
  SkillPage,
  Skill,
  SkillSummary,
  KnowledgeUnitInput: UnitBody,
  KnowledgeUnitCreated: UnitCreated,
  KnowledgeUnitResponse: UnitOne,
  KnowledgeUnitPage: UnitPage,
  KnowledgeUnit,
  KnowledgeUnitSummary,
  VerdictRequest: VerdictBody,
  VerdictRecorded,
  KnowledgeUnitDeleted: UnitDeleted,
  ReputationResponse: ReputationOne,
  ReputationProfile,
  ReputationEvent,
  Export: ExportDocument,
  Verdict,
  KeyMetadata,
  Health,
  Readiness,
};

/** The error responses a route can give, for its OpenAPI entry. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
