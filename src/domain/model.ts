// The registry's nouns, written once as TypeBox schemas: the HTTP layer validates and serializes with
// them (and publishes them in OpenAPI), and every other layer takes its types from them (Static<…>).
import { Type, type Static, type TSchema } from 'typebox';

export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export const KEY_TIERS = ['free', 'pro', 'enterprise'] as const;
export type KeyTier = (typeof KEY_TIERS)[number];
export type Tier = KeyTier | 'anonymous';

export const UNIT_TYPES = [
  'pattern',
  'technique',
  'procedure',
  'fact',
  'pitfall',
  'reference',
  'tool_usage',
  'reasoning_trace',
] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

export const VISIBILITIES = ['public', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const REPUTATION_ACTIONS = ['contribute_skill', 'contribute_knowledge', 'validate_knowledge'] as const;
export type ReputationAction = (typeof REPUTATION_ACTIONS)[number];

/** 1..128 of letters, digits and `. _ : @ -`, starting with a letter or digit. */
export const AGENT_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const closed = { additionalProperties: false } as const;

export const ScopeSchema = Type.Enum([...SCOPES]);
export const KeyTierSchema = Type.Enum([...KEY_TIERS]);
export const UnitTypeSchema = Type.Enum([...UNIT_TYPES]);
export const VisibilitySchema = Type.Enum([...VISIBILITIES]);

// ---- trust: holds and security verdicts ------------------------------------------------------------

/** A hold, as the owner of a held item and admins see it (nobody else sees the item at all). */
export const HoldSchema = Type.Object(
  {
    reason: Type.String({ description: 'the reason code of the decision that holds it' }),
    by: Type.Enum(['scanner', 'moderator']),
    at: Timestamp,
  },
  { description: 'held: hidden from everyone but its owner and admins; the owner may appeal' },
);

export const VERDICTS = ['clean', 'suspicious', 'malicious'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

export const SecurityFinding = Type.Object({
  rule: Type.String({ description: 'a family, optionally refined after a slash (exfiltration/discord-webhook)' }),
  severity: Type.Enum([...SEVERITIES]),
  file: Type.String({ description: 'SKILL.md, a bundle path, or a unit field (content.examples[2])' }),
  line: Type.Integer({ minimum: 1 }),
  message: Type.String(),
  excerpt: Type.String({ description: 'at most 200 characters of what matched, control characters escaped' }),
});

/** What the registry's scanner found in a version or a unit. */
export const SecuritySchema = Type.Object({
  verdict: Type.Enum([...VERDICTS]),
  scanner: Type.String({ description: 'the rule set and its version' }),
  scanned_at: Timestamp,
  findings: Type.Array(SecurityFinding),
});
export type Security = Static<typeof SecuritySchema>;

/** A verdict in a list: the verdict and how many findings it has (the item's read has the findings). */
export const SecurityBrief = Type.Object({
  verdict: Type.Enum([...VERDICTS]),
  findings_count: Type.Integer(),
});

// ---- knowledge units -------------------------------------------------------------------------------

/** What a contributor sends (POST /v1/knowledge); unknown and server-assigned fields are refused. */
export const KnowledgeUnitInput = Type.Object(
  {
    title: Type.String({
      minLength: 1,
      maxLength: 1_000,
      description: '1..200 characters after trimming surrounding white space',
    }),
    type: UnitTypeSchema,
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
export type KnowledgeUnitInput = Static<typeof KnowledgeUnitInput>;

export const KnowledgeUnit = Type.Object({
  id: Type.String(),
  agent_id: Type.String(),
  title: Type.String(),
  type: UnitTypeSchema,
  domain: Type.String(),
  content: Type.Object({ description: Type.String(), examples: Type.Array(Type.String()) }),
  metadata: Type.Object({ source: Type.String(), confidence: Type.Number() }),
  tags: Type.Array(Type.String()),
  quality_score: Type.Number(),
  validations: Type.Object({ valid: Type.Integer(), invalid: Type.Integer() }),
  created_at: Timestamp,
  updated_at: Timestamp,
  security: Type.Optional(SecuritySchema),
  held: Type.Optional(HoldSchema),
});
export type KnowledgeUnit = Static<typeof KnowledgeUnit>;

/** A unit in a list: long text cut (domain/summaries.ts), marked `truncated`; GET by id has it all. */
export const KnowledgeUnitSummary = Type.Object({
  ...KnowledgeUnit.properties,
  truncated: Type.Boolean({ description: 'true when text was cut for the list: GET /v1/knowledge/{id} has all of it' }),
});

export const Verdict = Type.Object({
  unit_id: Type.String(),
  agent_id: Type.String(),
  valid: Type.Boolean(),
  feedback: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Verdict = Static<typeof Verdict>;

// ---- skills ----------------------------------------------------------------------------------------

/** A finding about a skill: a deviation from the Agent Skills format, or a soft finding about content. */
export const SkillWarning = Type.Object({
  kind: Type.String({
    description: 'stable id: yaml_lenient, name_normalized, unknown_field, html, prompt_injection, …',
  }),
  message: Type.String(),
  file: Type.Optional(Type.String({ description: 'the bundle file the finding is about; absent for SKILL.md' })),
});
export type SkillWarning = Static<typeof SkillWarning>;

/** A file of a skill's bundle (SKILL.md aside), served at /v1/skills/{id}/versions/{version}/files/{path}. */
export const SkillFile = Type.Object({
  path: Type.String(),
  size: Type.Integer({ description: 'bytes' }),
  digest: Type.String({ description: 'sha256:<hex> of the file' }),
  media_type: Type.String(),
});
export type SkillFile = Static<typeof SkillFile>;

const skillFields = {
  id: Type.String(),
  /** The conformant slug: with the publisher, the skill's identity. */
  name: Type.String({ description: 'the conformant name (a-z 0-9 -); with agent_id, the skill identity' }),
  display_name: Type.String({ description: 'the name as the SKILL.md gives it' }),
  description: Type.String(),
  domain: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  license: Nullable(Type.String()),
  visibility: VisibilitySchema,
  agent_id: Type.String(),
  quality_score: Type.Number(),
  version: Type.String({ description: 'the version shown (semver)' }),
  latest_version: Nullable(
    Type.String({ description: 'the version reads give by default; null when every version is yanked' }),
  ),
  yanked: Type.Boolean({ description: 'this version was withdrawn: readable by its number, never chosen as latest' }),
  file_count: Type.Integer({ description: 'bundle files besides SKILL.md' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  published_at: Timestamp,
};

export const Skill = Type.Object({
  ...skillFields,
  digest: Type.String({
    description: 'sha256:<hex> of the version: of SKILL.md alone, or of its archive when it has files',
  }),
  conformance: Type.Object({
    conformant: Type.Boolean({ description: 'true when the SKILL.md follows the Agent Skills format' }),
    warnings: Type.Array(SkillWarning, { description: 'why not, and the soft findings; kept with the version' }),
  }),
  files: Type.Array(SkillFile),
  skill_md_content: Type.String(),
  security: Type.Optional(SecuritySchema),
  held: Type.Optional(HoldSchema),
});
export type Skill = Static<typeof Skill>;

/**
 * A skill in a list: its latest version without SKILL.md, files, warnings and the version digest (GET
 * /v1/skills/{id} has them).
 */
export const SkillSummary = Type.Object({
  ...skillFields,
  conformance: Type.Object({ conformant: Type.Boolean() }),
  security: Type.Optional(SecurityBrief),
  held: Type.Optional(HoldSchema),
});

/** One version of a skill, as its version list shows it. */
export const SkillVersionSummary = Type.Object({
  version: Type.String(),
  digest: Type.String(),
  yanked: Type.Boolean(),
  description: Type.String(),
  conformant: Type.Boolean(),
  file_count: Type.Integer(),
  published_at: Timestamp,
  security: Type.Optional(SecurityBrief),
  held: Type.Optional(HoldSchema),
});
export type SkillVersionSummary = Static<typeof SkillVersionSummary>;

// ---- agents, keys and reputation ---------------------------------------------------------------------

export const ReputationEvent = Type.Object({
  action: Type.Enum([...REPUTATION_ACTIONS]),
  delta: Type.Number(),
  target_id: Type.String(),
  timestamp: Timestamp,
});
export type ReputationEvent = Static<typeof ReputationEvent>;

export const ReputationProfile = Type.Object({
  agent_id: Type.String(),
  score: Type.Number(),
  contributions: Type.Integer(),
  validations: Type.Integer(),
  history: Type.Array(ReputationEvent, { description: 'the most recent items, newest first' }),
  updated_at: Timestamp,
});
export type ReputationProfile = Static<typeof ReputationProfile>;

/** A key as an export shows it: never the hash. */
export const KeyMetadata = Type.Object({
  key_prefix: Type.String(),
  scopes: Type.Array(ScopeSchema),
  tier: KeyTierSchema,
  created_at: Timestamp,
  revoked_at: Nullable(Timestamp),
});
export type KeyMetadata = Static<typeof KeyMetadata>;

/** A stored API key, as the authentication layer reads it (never leaves the server). */
export interface ApiKeyRecord {
  id: number;
  agentId: string;
  keyHash: string;
  keyPrefix: string;
  scopes: Scope[];
  tier: KeyTier;
  createdAt: string;
  revokedAt: string | null;
}
