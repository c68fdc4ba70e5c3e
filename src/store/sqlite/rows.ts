// Row shapes as SQLite returns them, and their mapping to the domain's objects.
import type {
  ApiKeyRecord,
  KeyMetadata,
  KeyTier,
  KnowledgeUnit,
  ReputationEvent,
  Scope,
  Skill,
  UnitType,
  Verdict,
  Visibility,
} from '../../domain/model.js';
import { millisToPoints } from '../../domain/reputation.js';
import type { SavedResponse } from '../store.js';

export interface KeyRow {
  id: number;
  agent_id: string;
  key_hash: string;
  key_prefix: string;
  scopes: string;
  tier: string;
  created_at: string;
  revoked_at: string | null;
}

export const UNIT_COLUMNS = `ku.id, ku.agent_id, ku.title, ku.type, ku.domain, ku.description, ku.examples, ku.source,
  ku.confidence, ku.tags, ku.quality_score, ku.valid_count, ku.invalid_count, ku.created_at, ku.updated_at`;

export interface UnitRow {
  seq: number;
  id: string;
  agent_id: string;
  title: string;
  type: string;
  domain: string;
  description: string;
  examples: string;
  source: string;
  confidence: number;
  tags: string;
  quality_score: number;
  valid_count: number;
  invalid_count: number;
  created_at: string;
  updated_at: string;
}

export const SKILL_COLUMNS = `s.id, s.agent_id, s.name, s.description, s.domain, s.tags, s.license, s.visibility,
  s.quality_score, s.skill_md_content, s.created_at, s.updated_at`;

export interface SkillRow {
  seq: number;
  id: string;
  agent_id: string;
  name: string;
  description: string;
  domain: string | null;
  tags: string;
  license: string | null;
  visibility: string;
  quality_score: number;
  skill_md_content: string;
  created_at: string;
  updated_at: string;
}

export interface AgentRow {
  agent_id: string;
  score_millis: number;
  contributions: number;
  validations: number;
  updated_at: string;
}

export interface EventRow {
  seq: number;
  action: string;
  delta_millis: number;
  target_id: string;
  created_at: string;
}

export interface VerdictRow {
  seq: number;
  unit_id: string;
  agent_id: string;
  valid: number;
  feedback: string;
  created_at: string;
  updated_at: string;
}

export function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    agentId: row.agent_id,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    scopes: row.scopes.split(' ') as Scope[],
    tier: row.tier as KeyTier,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export function toKeyMetadata(row: KeyRow): KeyMetadata {
  return {
    key_prefix: row.key_prefix,
    scopes: row.scopes.split(' ') as Scope[],
    tier: row.tier as KeyTier,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

export function toUnit(row: UnitRow): KnowledgeUnit {
  return {
    id: row.id,
    agent_id: row.agent_id,
    title: row.title,
    type: row.type as UnitType,
    domain: row.domain,
    content: { description: row.description, examples: JSON.parse(row.examples) as string[] },
    metadata: { source: row.source, confidence: row.confidence },
    tags: JSON.parse(row.tags) as string[],
    quality_score: row.quality_score,
    validations: { valid: row.valid_count, invalid: row.invalid_count },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toSkill(row: SkillRow): Skill {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    domain: row.domain,
    tags: JSON.parse(row.tags) as string[],
    license: row.license,
    visibility: row.visibility as Visibility,
    agent_id: row.agent_id,
    quality_score: row.quality_score,
    skill_md_content: row.skill_md_content,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toEvent(row: EventRow): ReputationEvent {
  return {
    action: row.action as ReputationEvent['action'],
    delta: millisToPoints(row.delta_millis),
    target_id: row.target_id,
    timestamp: row.created_at,
  };
}

export function toVerdict(row: VerdictRow): Verdict {
  return {
    unit_id: row.unit_id,
    agent_id: row.agent_id,
    valid: row.valid === 1,
    feedback: row.feedback,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface IdempotencyRow {
  scope: string;
  key_hash: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}

export function toSavedResponse(row: IdempotencyRow): SavedResponse {
  return {
    scope: row.scope,
    keyHash: row.key_hash,
    requestHash: row.request_hash,
    status: row.status,
    body: row.body,
    createdAt: row.created_at,
  };
}
