// The agent's own schemas: registering and revoking API keys, the agent parameter, the reputation profile
// and the export of everything tied to an agent.
import { Type, type Static } from 'typebox';
import {
  AGENT_ID_PATTERN,
  KeyMetadata,
  KeyTierSchema,
  KnowledgeUnit,
  ReputationEvent,
  ReputationProfile,
  ScopeSchema,
  Verdict,
} from '../../domain/model.js';
import { closed, Timestamp } from './common.js';
import { SkillExport } from './skills.js';

export const AgentId = Type.String({ minLength: 1, maxLength: 128, pattern: AGENT_ID_PATTERN });
export const AgentParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 256 }) }, closed);
export type AgentParams = Static<typeof AgentParams>;

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

export const KeyList = Type.Object(
  { data: Type.Array(KeyMetadata, { description: 'oldest first; revoked keys too, with revoked_at' }) },
  { description: "The calling agent's API keys: prefixes, scopes, tiers and dates, never hashes" },
);

export const WhoAmI = Type.Object(
  {
    data: Type.Object({
      agent_id: Type.String(),
      tier: KeyTierSchema,
      scopes: Type.Array(ScopeSchema),
      credential: Type.Enum(['api_key', 'oidc'], { description: 'an API key, or a token of the identity provider' }),
      key_prefix: Type.Union([Type.String(), Type.Null()], {
        description: 'the prefix of the API key used; null for a token',
      }),
    }),
  },
  { description: 'Who the credential of this request is' },
);

// ---- reputation and export -----------------------------------------------------------------------

export const ReputationOne = Type.Object(
  { data: ReputationProfile },
  { description: "The agent's reputation profile" },
);

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
