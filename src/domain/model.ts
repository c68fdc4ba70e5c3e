// The registry's nouns, shared by the domain, the store and the HTTP layer.

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

/** 1..128 of letters, digits and `. _ : @ -`, starting with a letter or digit. */
export const AGENT_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$';

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

export interface KnowledgeUnitInput {
  title: string;
  type: UnitType;
  domain: string;
  content: { description: string; examples: string[] };
  metadata: { source: string; confidence: number };
  tags?: string[];
}

export interface KnowledgeUnit {
  id: string;
  agent_id: string;
  title: string;
  type: UnitType;
  domain: string;
  content: { description: string; examples: string[] };
  metadata: { source: string; confidence: number };
  tags: string[];
  quality_score: number;
  validations: { valid: number; invalid: number };
  created_at: string;
  updated_at: string;
}

export interface Skill {
  id: string;
  name: string;
  description: string;
  domain: string | null;
  tags: string[];
  license: string | null;
  visibility: Visibility;
  agent_id: string;
  quality_score: number;
  skill_md_content: string;
  created_at: string;
  updated_at: string;
}

export interface Verdict {
  unit_id: string;
  agent_id: string;
  valid: boolean;
  feedback: string;
  created_at: string;
  updated_at: string;
}

export const REPUTATION_ACTIONS = ['contribute_skill', 'contribute_knowledge', 'validate_knowledge'] as const;
export type ReputationAction = (typeof REPUTATION_ACTIONS)[number];

export interface ReputationEvent {
  action: ReputationAction;
  delta: number;
  target_id: string;
  timestamp: string;
}

export interface ReputationProfile {
  agent_id: string;
  score: number;
  contributions: number;
  validations: number;
  history: ReputationEvent[];
  updated_at: string;
}

export interface KeyMetadata {
  key_prefix: string;
  scopes: Scope[];
  tier: KeyTier;
  created_at: string;
  revoked_at: string | null;
}
