// TypeBox schemas: one source for request validation, handler types, response serialization and OpenAPI.
// The entities themselves (units, skills, profiles) are the domain's schemas (domain/model.ts); this file
// adds what the API wraps around them: request bodies, query strings, envelopes and pages.
import { Type, type Static, type TSchema } from 'typebox';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_FILES, MAX_FILE_BYTES, MAX_PATH_LENGTH } from '../domain/bundles.js';
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
  SkillFile,
  SkillSummary,
  SkillVersionSummary,
  SkillWarning,
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
const Q = Type.Optional(Type.String({ maxLength: 500, description:
      'natural language, as an agent writes it: stop words dropped, an item matches when it shares any remaining word ' +
      '(or, with embeddings on, its meaning is close enough); best match first, an exact name or title first' }));
const Domain = Type.Optional(Type.String({ minLength: 1, maxLength: 100 }));

export const SkillListQuery = Type.Object(
  {
    q: Q,
    domain: Domain,
    tags: Type.Optional(Type.String({ maxLength: 1100, description: 'comma-separated; a skill must carry every tag' })),
    min_quality: MinQuality,
    conformant: Type.Optional(Type.Boolean({ description: 'only skills that follow (true) or break (false) the Agent Skills format' })),
    publisher: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "only this agent's skills" })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'only the skill of this name (with publisher: at most one)' })),
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
      total: Type.Integer({ description: 'every match, not just this page (with q, at most 1000: see capped)' }),
      offset: Type.Integer(),
      limit: Type.Integer(),
      capped: Type.Optional(
        Type.Boolean({ description: 'with q only: true when more than 1000 items matched; total is then 1000 and paging stops there' }),
      ),
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
    files: Type.Optional(
      Type.Array(
        Type.Object(
          {
            path: Type.String({ minLength: 1, maxLength: MAX_PATH_LENGTH, description: 'relative, / between folders (scripts/extract.py)' }),
            content_base64: Type.String({ maxLength: Math.ceil((MAX_FILE_BYTES * 4) / 3) + 4 }),
          },
          closed,
        ),
        { maxItems: MAX_BUNDLE_FILES, description: `the bundle besides SKILL.md: at most ${MAX_BUNDLE_FILES} files of ${MAX_FILE_BYTES} bytes, ${MAX_BUNDLE_BYTES} in all` },
      ),
    ),
  },
  closed,
);
export type SkillBody = Static<typeof SkillBody>;

export const SkillCreated = Type.Object(
  {
    data: Skill,
    warnings: Type.Array(Type.String(), { description: 'the findings, as messages (data.conformance.warnings has them with their kinds)' }),
  },
  { description: 'The skill version as stored: a new skill or version (201), or the version that has this content already (200)' },
);
export const SkillOne = Type.Object({ data: Skill }, { description: 'The skill at one version, with its SKILL.md and file list' });
export const SkillPage = pageOf(SkillSummary, 'A page of skill summaries (their latest versions, no SKILL.md), in list order');
export const SkillVersionList = Type.Object({ data: Type.Array(SkillVersionSummary) }, { description: "A skill's versions, newest first" });
export const SkillDeleted = Type.Object(
  { data: Type.Object({ id: Type.String(), deleted: Type.Boolean() }) },
  { description: 'The skill, every version and file, are gone' },
);

const SemVer = Type.String({ minLength: 5, maxLength: 64, description: 'a semantic version, e.g. 1.2.3' });
export const SkillVersionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), version: SemVer }, closed);
export const SkillFileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), '*': Type.String({ maxLength: 1_000 }) }, closed);
export const SkillVersionFileParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), version: SemVer, '*': Type.String({ maxLength: 1_000 }) },
  closed,
);

/** A skill in the export: every version, with its files' content (base64). */
const SkillExport = Type.Object({
  id: Type.String(),
  name: Type.String(),
  visibility: VisibilitySchema,
  created_at: Timestamp,
  updated_at: Timestamp,
  latest_version: Type.Union([Type.String(), Type.Null()]),
  versions: Type.Array(
    Type.Object({
      ...Type.Omit(Skill, ['files']).properties,
      files: Type.Array(Type.Object({ ...SkillFile.properties, content_base64: Type.String() })),
    }),
  ),
});

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
      skills: Type.Array(SkillExport),
      validations: Type.Array(Verdict),
      reputation: Type.Object({
        ...ReputationProfile.properties,
        history: Type.Array(ReputationEvent, { description: 'every item, oldest first' }),
      }),
    }),
  },
  { description: 'Everything tied to the agent, streamed' },
);

export const DiscoveryIndex = Type.Object(
  {
    $schema: Type.String(),
    skills: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.Enum(['skill-md', 'archive']),
        description: Type.String(),
        url: Type.String(),
        digest: Type.String({ description: 'sha256:<hex> of the artifact at url' }),
      }),
    ),
  },
  { description: 'The Agent Skills discovery index (v0.2.0)' },
);

// ---- operations ----------------------------------------------------------------------------------

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
  SkillVersionList,
  SkillDeleted,
  DiscoveryIndex,
  Skill,
  SkillSummary,
  SkillVersionSummary,
  SkillFile,
  SkillWarning,
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
