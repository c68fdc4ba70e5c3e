// Rows as both backends return them, and their mapping to the domain's objects, written once. The
// backends differ only in how a few column types come back, named by a small Decode of each backend:
// SQLite keeps arrays as JSON text and booleans as 0/1; PostgreSQL returns jsonb parsed, real booleans,
// and bigint (identity columns, sums) as strings so that no value above 2^53 is silently rounded.
import { millisToPoints } from '../domain/reputation.js';
import type {
  ApiKeyRecord,
  KeyMetadata,
  KeyTier,
  KnowledgeUnit,
  ReputationEvent,
  ReputationProfile,
  Scope,
  UnitType,
  Security,
  Verdict,
} from '../domain/model.js';
import type { Hold } from '../domain/moderation.js';
import type { VerdictState } from '../domain/verdicts.js';
import type { IdempotentResponse, SavedResponse } from './store.js';

export interface Decode {
  /** A JSON array column (examples, tags). */
  strings(value: unknown): string[];
  /** Any JSON column. */
  json(value: unknown): unknown;
  bool(value: unknown): boolean;
}

export const sqliteDecode: Decode = {
  strings: (value) => JSON.parse(value as string) as string[],
  json: (value) => JSON.parse(value as string) as unknown,
  bool: (value) => value === 1,
};

export const postgresDecode: Decode = {
  strings: (value) => value as string[],
  json: (value) => value,
  bool: (value) => value === true,
};

/** Integer columns that PostgreSQL may return as strings (bigint). */
type Int = number | string;

// Column lists are spelled out (never `*`): a prepared `SELECT *` breaks on PostgreSQL once a newer
// instance adds a column, and each list maps exactly the fields its mapper reads.
export const KEY_COLUMNS = 'id, agent_id, key_hash, key_prefix, scopes, tier, created_at, revoked_at';
export const UNIT_COLUMNS = `ku.id, ku.agent_id, ku.title, ku.type, ku.domain, ku.description, ku.examples, ku.source,
  ku.confidence, ku.tags, ku.quality_score, ku.valid_count, ku.invalid_count, ku.created_at, ku.updated_at,
  ku.held_reason, ku.held_by, ku.held_at, ku.verdict, ku.findings, ku.scanner, ku.scanned_at`;
export const AGENT_COLUMNS = 'agent_id, score_millis, contributions, validations, updated_at';
export const EVENT_COLUMNS = 'seq, action, delta_millis, target_id, created_at';
export const VERDICT_COLUMNS = 'unit_id, agent_id, valid, feedback, created_at, updated_at';
export const IDEMPOTENCY_COLUMNS = 'scope, key_hash, request_hash, status, body, created_at';

/** A saved response's values in IDEMPOTENCY_COLUMNS order, then the bound an older one expired before. */
export const idempotencyValues = (r: IdempotentResponse): unknown[] => [
  r.scope,
  r.keyHash,
  r.requestHash,
  r.status,
  r.body,
  r.createdAt,
  r.expiredBefore,
];

export interface KeyRow {
  id: Int;
  agent_id: string;
  key_hash: string;
  key_prefix: string;
  scopes: string;
  tier: string;
  created_at: string;
  revoked_at: string | null;
}

/** The hold and the security verdict an item's row keeps (NULL: not held, not scanned). */
export interface TrustRow {
  held_reason: string | null;
  held_by: string | null;
  held_at: string | null;
  verdict: string | null;
  findings: unknown;
  scanner: string | null;
  scanned_at: string | null;
}

export interface UnitRow extends TrustRow {
  id: string;
  agent_id: string;
  title: string;
  type: string;
  domain: string;
  description: string;
  examples: unknown;
  source: string;
  confidence: number;
  tags: unknown;
  quality_score: number;
  valid_count: number;
  invalid_count: number;
  created_at: string;
  updated_at: string;
}

/** The hold a row keeps, if any. */
export function holdOf(row: Pick<TrustRow, 'held_reason' | 'held_by' | 'held_at'>): Hold | undefined {
  return row.held_at === null
    ? undefined
    : { reason: row.held_reason ?? '', by: row.held_by === 'scanner' ? 'scanner' : 'moderator', at: row.held_at };
}

/** The security verdict a row keeps, if it was scanned. */
export function securityOf(row: TrustRow, decode: Decode): Security | undefined {
  if (row.verdict === null || row.scanner === null || row.scanned_at === null) return undefined;
  return {
    verdict: row.verdict as Security['verdict'],
    scanner: row.scanner,
    scanned_at: row.scanned_at,
    findings: decode.json(row.findings) as Security['findings'],
  };
}

export interface AgentRow {
  agent_id: string;
  score_millis: Int;
  contributions: number;
  validations: number;
  updated_at: string;
}

export interface EventRow {
  action: string;
  delta_millis: number;
  target_id: string;
  created_at: string;
}

export interface VerdictRow {
  unit_id: string;
  agent_id: string;
  valid: unknown;
  feedback: string;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyRow {
  scope: string;
  key_hash: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}

export function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: Number(row.id),
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

export function toUnit(row: UnitRow, decode: Decode): KnowledgeUnit {
  const held = holdOf(row);
  const security = securityOf(row, decode);
  return {
    id: row.id,
    agent_id: row.agent_id,
    title: row.title,
    type: row.type as UnitType,
    domain: row.domain,
    content: { description: row.description, examples: decode.strings(row.examples) },
    metadata: { source: row.source, confidence: row.confidence },
    tags: decode.strings(row.tags),
    quality_score: row.quality_score,
    validations: { valid: row.valid_count, invalid: row.invalid_count },
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(security ? { security } : {}),
    ...(held ? { held } : {}),
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

export function toVerdict(row: VerdictRow, decode: Decode): Verdict {
  return {
    unit_id: row.unit_id,
    agent_id: row.agent_id,
    valid: decode.bool(row.valid),
    feedback: row.feedback,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toProfile(agent: AgentRow, history: EventRow[]): ReputationProfile {
  return {
    agent_id: agent.agent_id,
    score: millisToPoints(Number(agent.score_millis)),
    contributions: agent.contributions,
    validations: agent.validations,
    history: history.map(toEvent),
    updated_at: agent.updated_at,
  };
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

// ---- what the writers insert, in one column order for both backends --------------------------------

/** The storage a unit takes against its contributor's quota: the UTF-8 bytes of its text. */
export function unitBytes(unit: KnowledgeUnit): number {
  const text = [
    unit.title,
    unit.domain,
    unit.content.description,
    JSON.stringify(unit.content.examples),
    unit.metadata.source,
    JSON.stringify(unit.tags),
  ];
  return text.reduce((sum, part) => sum + Buffer.byteLength(part, 'utf8'), 0);
}

export const UNIT_INSERT_COLUMNS = [
  'id',
  'agent_id',
  'title',
  'type',
  'domain',
  'description',
  'examples',
  'source',
  'confidence',
  'tags',
  'base_quality',
  'quality_score',
  'created_at',
  'updated_at',
  'bytes',
  'verdict',
  'findings',
  'scanner',
  'scanned_at',
] as const;

/** A unit's insert values, in UNIT_INSERT_COLUMNS order (arrays as JSON text). */
export function unitValues(unit: KnowledgeUnit, baseQuality: number): unknown[] {
  return [
    unit.id,
    unit.agent_id,
    unit.title,
    unit.type,
    unit.domain,
    unit.content.description,
    JSON.stringify(unit.content.examples),
    unit.metadata.source,
    unit.metadata.confidence,
    JSON.stringify(unit.tags),
    baseQuality,
    unit.quality_score,
    unit.created_at,
    unit.updated_at,
    unitBytes(unit),
    ...securityValues(unit.security).filter((_, i) => i !== 2),
  ];
}

/** A verdict's columns: verdict, findings (JSON text), findings_count, scanner, scanned_at; NULLs unscanned. */
export function securityValues(security: Security | undefined): unknown[] {
  if (!security) return [null, null, null, null, null];
  return [
    security.verdict,
    JSON.stringify(security.findings),
    security.findings.length,
    security.scanner,
    security.scanned_at,
  ];
}

/** A unit's verdict counts as the store reads them, with the same agent's earlier verdict if any. */
export interface VerdictUnitRow {
  base_quality: number;
  valid_count: number;
  invalid_count: number;
  valid_weight: number;
  invalid_weight: number;
}

/** What the verdict rule decides from (domain/verdicts.ts), from the rows a store read in its transaction. */
export function toVerdictState(
  unit: VerdictUnitRow,
  previous: { valid: unknown; weight: number } | undefined,
  decode: Decode,
): VerdictState {
  return {
    baseQuality: unit.base_quality,
    valid: unit.valid_count,
    invalid: unit.invalid_count,
    validWeight: unit.valid_weight,
    invalidWeight: unit.invalid_weight,
    previous: previous === undefined ? null : { valid: decode.bool(previous.valid), weight: previous.weight },
  };
}
