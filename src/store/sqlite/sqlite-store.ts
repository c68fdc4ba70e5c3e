// The embedded store: SQLite through better-sqlite3, WAL journal, FTS5 for search.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db, Statement } from 'better-sqlite3';
import type {
  ApiKeyRecord,
  KeyMetadata,
  KnowledgeUnit,
  ReputationEvent,
  ReputationProfile,
  Skill,
  Verdict,
} from '../../domain/model.js';
import { millisToPoints } from '../../domain/reputation.js';
import {
  AgentExistsError,
  IdempotencyKeyTakenError,
  PrefixTakenError,
  StoreUnavailableError,
  type AgentOrigin,
  type IdempotentResponse,
  type SavedResponse,
  type NewKey,
  type NewVerdict,
  type Page,
  type SkillImport,
  type SkillQuery,
  type Store,
  type UnitImport,
  type UnitQuery,
  type VerdictOutcome,
} from '../store.js';
import { importSkillsSqlite, importUnitsSqlite } from './bulk.js';
import { migrations } from './migrations.js';
import * as rows from './rows.js';
import { ReadPool } from './read-pool.js';
import { listSkills } from './skill-lists.js';
import { DEFAULT_TUNING, listUnits, type UnitListTuning } from './unit-lists.js';

const EXPORT_BATCH = 500;
const CACHE_KIB = 32 * 1024;
const READER_CACHE_KIB = 24 * 1024;
/** Searches waiting for a read worker at most; more answer 503, while gets and writes go on. */
const MAX_WAITING_READS = 64;

export interface SqliteOptions {
  /** Where the unit-list paths switch (tests move them). */
  tuning?: UnitListTuning;
  /** Worker threads for lists and searches (0: on the main thread; always 0 for `:memory:`). */
  readWorkers?: number;
}


/** `sqlite:<path>` or `sqlite::memory:` → the file name better-sqlite3 takes. */
export function sqliteFilename(url: string): string {
  const rest = url.replace(/^sqlite:/, '');
  return rest === ':memory:' || rest === '' ? ':memory:' : rest;
}

/**
 * A database that is locked by another process past busy_timeout, full, or failing I/O has kept nothing
 * of the write: the client may retry (503), it did nothing wrong (not a 500).
 */
function unavailableOr(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|CANTOPEN|PROTOCOL)/.test(code)) {
    return new StoreUnavailableError(`the database cannot take writes now (${code})`);
  }
  return error;
}

function isUniqueViolation(error: unknown, index: string): boolean {
  const e = error as { code?: string; message?: string };
  return (
    (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') &&
    (e.message ?? '').includes(index)
  );
}

export class SqliteStore implements Store {
  readonly backend = 'sqlite' as const;
  private readonly db: Db;
  private readonly cache = new Map<string, Statement>();
  private readonly reads: Pick<ReadPool, 'listUnits' | 'listSkills'>;
  private readonly pool: ReadPool | null = null;
  private queue: { work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];

  constructor(url: string, options: SqliteOptions = {}) {
    const filename = sqliteFilename(url);
    if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before the client hears 2xx, so acknowledged writes survive even power loss.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    // 32 MiB of page cache (the default is 2 MiB): ranking reads each match's document size from the
    // full-text index, and a small cache turns those reads into system calls (seen in a perf profile).
    this.db.pragma(`cache_size = -${CACHE_KIB}`);
    this.migrate();
    const tuning = options.tuning ?? DEFAULT_TUNING;
    const workers = options.readWorkers ?? 0;
    // An in-memory database lives in this thread only; so does every read when no worker is asked for.
    if (filename === ':memory:' || workers === 0) {
      const prepare = (sql: string) => this.stmt(sql);
      this.reads = {
        listUnits: async (query) => listUnits(prepare, query, tuning),
        listSkills: async (query) => listSkills(prepare, query),
      };
    } else {
      this.pool = new ReadPool({ filename, tuning, cacheKib: READER_CACHE_KIB }, { workers, maxWaiting: MAX_WAITING_READS });
      this.reads = this.pool;
    }
  }

  private migrate(): void {
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const applied = new Set(
      this.db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
    );
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      // IMMEDIATE: a second process starting at the same moment waits instead of applying it twice.
      this.db.transaction(() => {
        const done = this.db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version);
        if (done) return;
        this.db.exec(migration.sql);
        this.db
          .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
          .run(migration.version, migration.name, new Date().toISOString());
      }).immediate();
    }
  }

  /** Statements are prepared once and kept, including each shape of list query. */
  private stmt(sql: string): Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  /**
   * Group commit: writes that arrive while the event loop is busy are applied together, each in a
   * savepoint of its own, under one transaction, so one fsync serves them all. Each caller hears its
   * own outcome (its value, or its error with its savepoint rolled back) only once the commit is on disk.
   */
  private write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const queued = this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (queued === 1) setImmediate(() => this.commitQueued());
    });
  }

  private commitQueued(): void {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      this.db
        .transaction(() => {
          for (const op of batch) {
            try {
              outcomes.push({ ok: true, value: this.db.transaction(op.work)() });
            } catch (error) {
              // Some failures (disk full, I/O error) roll back the whole transaction, not just the op's
              // savepoint: then the group is abandoned, or later ops would commit on their own.
              if (!this.db.inTransaction) throw error;
              outcomes.push({ ok: false, error: unavailableOr(error) });
            }
          }
        })
        .immediate();
    } catch (error) {
      const failure = unavailableOr(error);
      for (const op of batch) op.reject(failure);
      return;
    }
    batch.forEach((op, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) op.resolve(outcome.value);
      else op.reject(outcome.error);
    });
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    await this.pool?.close();
    this.commitQueued();
    this.db.close();
  }

  // ---- agents and keys -------------------------------------------------------------------------

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = this.stmt('SELECT * FROM api_keys WHERE key_hash = ?').get(keyHash) as rows.KeyRow | undefined;
    return row ? rows.toKey(row) : null;
  }

  async findActiveKeyByPrefix(keyPrefix: string): Promise<ApiKeyRecord | null> {
    const row = this.stmt('SELECT * FROM api_keys WHERE key_prefix = ? AND revoked_at IS NULL').get(keyPrefix) as
      | rows.KeyRow
      | undefined;
    return row ? rows.toKey(row) : null;
  }

  async agentExists(agentId: string): Promise<boolean> {
    return this.stmt('SELECT 1 FROM agents WHERE agent_id = ?').get(agentId) !== undefined;
  }

  async agentOrigin(agentId: string): Promise<AgentOrigin | null> {
    const origin = this.stmt('SELECT origin FROM agents WHERE agent_id = ?').pluck().get(agentId) as AgentOrigin | undefined;
    return origin ?? null;
  }

  async claimOidcAgent(agentId: string, at: string): Promise<AgentOrigin> {
    await this.write(() =>
      this.stmt(`INSERT INTO agents (agent_id, origin, created_at, updated_at) VALUES (?, 'oidc', ?, ?) ON CONFLICT DO NOTHING`).run(
        agentId,
        at,
        at,
      ),
    );
    return (await this.agentOrigin(agentId))!;
  }

  async createAgentWithKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    return this.write(() => {
      try {
        this.stmt('INSERT INTO agents (agent_id, created_at, updated_at) VALUES (?, ?, ?)').run(
          key.agentId,
          key.createdAt,
          key.createdAt,
        );
      } catch (error) {
        if (isUniqueViolation(error, 'agents.agent_id')) throw new AgentExistsError(key.agentId);
        throw error;
      }
      this.insertKey(key);
      this.saveResponse(response);
    });
  }

  async addKey(key: NewKey, response?: IdempotentResponse): Promise<void> {
    return this.write(() => {
      this.insertKey(key);
      this.saveResponse(response);
    });
  }

  private insertKey(key: NewKey): void {
    try {
      this.stmt(
        'INSERT INTO api_keys (agent_id, key_hash, key_prefix, scopes, tier, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(key.agentId, key.keyHash, key.keyPrefix, key.scopes.join(' '), key.tier, key.createdAt);
    } catch (error) {
      if (isUniqueViolation(error, 'api_keys.key_prefix')) throw new PrefixTakenError(key.keyPrefix);
      throw error;
    }
  }

  async revokeKey(keyId: number, at: string, response?: IdempotentResponse): Promise<boolean> {
    return this.write(() => {
      const result = this.stmt('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, keyId);
      if (result.changes !== 1) return false;
      this.saveResponse(response);
      return true;
    });
  }

  // ---- idempotency -----------------------------------------------------------------------------

  async findIdempotentResponse(scope: string, keyHash: string, notBefore: string): Promise<SavedResponse | null> {
    const row = this.stmt(
      'SELECT * FROM idempotency_keys WHERE scope = ? AND key_hash = ? AND created_at >= ?',
    ).get(scope, keyHash, notBefore) as rows.IdempotencyRow | undefined;
    return row ? rows.toSavedResponse(row) : null;
  }

  async purgeIdempotentResponses(before: string): Promise<number> {
    return this.write(() => this.stmt('DELETE FROM idempotency_keys WHERE created_at < ?').run(before).changes);
  }

  /** Inside the caller's transaction: keeps the response, or fails the whole write if a live one exists. */
  private saveResponse(response: IdempotentResponse | undefined): void {
    if (!response) return;
    const saved = this.stmt(
      `INSERT INTO idempotency_keys (scope, key_hash, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope, key_hash) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
         body = excluded.body, created_at = excluded.created_at
       WHERE idempotency_keys.created_at < ?`,
    ).run(response.scope, response.keyHash, response.requestHash, response.status, response.body, response.createdAt, response.expiredBefore);
    if (saved.changes === 0) throw new IdempotencyKeyTakenError();
  }

  // ---- skills ----------------------------------------------------------------------------------

  async contributeSkill(skill: Skill, body: string, rewardMillis: number, response?: IdempotentResponse): Promise<void> {
    return this.write(() => {
      const { lastInsertRowid: seq } = this.stmt(
        `INSERT INTO skills (id, agent_id, name, description, domain, tags, license, visibility, quality_score,
           skill_md_content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        skill.id,
        skill.agent_id,
        skill.name,
        skill.description,
        skill.domain,
        JSON.stringify(skill.tags),
        skill.license,
        skill.visibility,
        skill.quality_score,
        skill.skill_md_content,
        skill.created_at,
        skill.updated_at,
      );
      const tagRow = this.stmt('INSERT OR IGNORE INTO skill_tags (tag, skill_seq) VALUES (?, ?)');
      for (const tag of skill.tags) tagRow.run(tag.toLowerCase(), seq);
      this.stmt('INSERT INTO skills_fts (rowid, name, description, tags, body) VALUES (?, ?, ?, ?, ?)').run(
        seq,
        skill.name,
        skill.description,
        skill.tags.join(' '),
        body,
      );
      this.reward(skill.agent_id, 'contribute_skill', rewardMillis, skill.id, skill.created_at, true);
      this.saveResponse(response);
    });
  }

  async getSkill(id: string): Promise<Skill | null> {
    const row = this.stmt(`SELECT ${rows.SKILL_COLUMNS} FROM skills s WHERE s.id = ?`).get(id) as
      | rows.SkillRow
      | undefined;
    return row ? rows.toSkill(row) : null;
  }

  async listSkills(query: SkillQuery): Promise<Page<Skill>> {
    return this.reads.listSkills(query);
  }

  // ---- knowledge units -------------------------------------------------------------------------

  async contributeUnit(
    unit: KnowledgeUnit,
    baseQuality: number,
    rewardMillis: number,
    response?: IdempotentResponse,
  ): Promise<void> {
    return this.write(() => {
      const { lastInsertRowid: seq } = this.stmt(
        `INSERT INTO knowledge_units (id, agent_id, title, type, domain, description, examples, source, confidence,
           tags, base_quality, quality_score, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
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
      );
      this.stmt(
        'INSERT INTO knowledge_fts (rowid, title, description, examples, domain, tags) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(
        seq,
        unit.title,
        unit.content.description,
        unit.content.examples.join('\n'),
        unit.domain,
        unit.tags.join(' '),
      );
      this.reward(unit.agent_id, 'contribute_knowledge', rewardMillis, unit.id, unit.created_at, true);
      this.saveResponse(response);
    });
  }

  async getUnit(id: string): Promise<KnowledgeUnit | null> {
    const row = this.stmt(`SELECT ${rows.UNIT_COLUMNS} FROM knowledge_units ku WHERE ku.id = ?`).get(id) as
      | rows.UnitRow
      | undefined;
    return row ? rows.toUnit(row) : null;
  }

  async listUnits(query: UnitQuery): Promise<Page<KnowledgeUnit>> {
    return this.reads.listUnits(query);
  }

  async deleteUnit(id: string): Promise<boolean> {
    return this.write(() => {
      const seq = this.stmt('SELECT seq FROM knowledge_units WHERE id = ?').pluck().get(id) as number | undefined;
      if (seq === undefined) return false;
      this.stmt('DELETE FROM knowledge_fts WHERE rowid = ?').run(seq);
      this.stmt('DELETE FROM knowledge_units WHERE seq = ?').run(seq); // verdicts go by ON DELETE CASCADE
      return true;
    });
  }

  async recordVerdict(v: NewVerdict, response?: IdempotentResponse): Promise<VerdictOutcome> {
    return this.write((): VerdictOutcome => {
      const unit = this.stmt(
        'SELECT seq, base_quality, valid_count, invalid_count FROM knowledge_units WHERE id = ?',
      ).get(v.unitId) as { seq: number; base_quality: number; valid_count: number; invalid_count: number } | undefined;
      if (!unit) return { recorded: false, reason: 'not_found' };
      const previous = this.stmt('SELECT valid FROM verdicts WHERE unit_seq = ? AND agent_id = ?').get(
        unit.seq,
        v.agentId,
      ) as { valid: number } | undefined;
      let valid = unit.valid_count + (v.valid ? 1 : 0);
      let invalid = unit.invalid_count + (v.valid ? 0 : 1);
      if (previous) {
        if (previous.valid) valid -= 1;
        else invalid -= 1;
        this.stmt('UPDATE verdicts SET valid = ?, feedback = ?, updated_at = ? WHERE unit_seq = ? AND agent_id = ?').run(
          v.valid ? 1 : 0,
          v.feedback,
          v.at,
          unit.seq,
          v.agentId,
        );
      } else {
        this.stmt(
          `INSERT INTO verdicts (unit_seq, unit_id, agent_id, valid, feedback, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(unit.seq, v.unitId, v.agentId, v.valid ? 1 : 0, v.feedback, v.at, v.at);
        this.reward(v.agentId, 'validate_knowledge', v.rewardMillis, v.unitId, v.at, false);
      }
      this.stmt(
        'UPDATE knowledge_units SET valid_count = ?, invalid_count = ?, quality_score = ?, updated_at = ? WHERE seq = ?',
      ).run(valid, invalid, v.rescore(unit.base_quality, valid, invalid), v.at, unit.seq);
      this.saveResponse(response);
      return { recorded: true, first: previous === undefined };
    });
  }

  /** Adds a history item and moves the agent's running totals, inside the caller's transaction. */
  private reward(
    agentId: string,
    action: ReputationEvent['action'],
    millis: number,
    targetId: string,
    at: string,
    contribution: boolean,
  ): void {
    this.stmt(
      'INSERT INTO reputation_events (agent_id, action, delta_millis, target_id, created_at) VALUES (?, ?, ?, ?, ?)',
    ).run(agentId, action, millis, targetId, at);
    this.stmt(
      `UPDATE agents SET score_millis = score_millis + ?, contributions = contributions + ?,
         validations = validations + ?, updated_at = ? WHERE agent_id = ?`,
    ).run(millis, contribution ? 1 : 0, contribution ? 0 : 1, at, agentId);
  }

  // ---- reputation and export -------------------------------------------------------------------

  importUnits(items: readonly UnitImport[], rewardMillis: number): Promise<void> {
    return this.write(() => importUnitsSqlite(this.db, items, rewardMillis));
  }

  importSkills(items: readonly SkillImport[], rewardMillis: number): Promise<void> {
    return this.write(() => importSkillsSqlite(this.db, items, rewardMillis));
  }

  async reputation(agentId: string, historyLimit: number): Promise<ReputationProfile | null> {
    const agent = this.stmt(
      'SELECT agent_id, score_millis, contributions, validations, updated_at FROM agents WHERE agent_id = ?',
    ).get(agentId) as rows.AgentRow | undefined;
    if (!agent) return null;
    const history = this.stmt(
      'SELECT seq, action, delta_millis, target_id, created_at FROM reputation_events WHERE agent_id = ? ORDER BY seq DESC LIMIT ?',
    ).all(agentId, historyLimit) as rows.EventRow[];
    return {
      agent_id: agent.agent_id,
      score: millisToPoints(agent.score_millis),
      contributions: agent.contributions,
      validations: agent.validations,
      history: history.map(rows.toEvent),
      updated_at: agent.updated_at,
    };
  }

  exportKeys(agentId: string): AsyncIterable<KeyMetadata> {
    return this.batches('SELECT id AS seq, * FROM api_keys WHERE agent_id = ? AND id > ? ORDER BY id LIMIT ?', agentId, rows.toKeyMetadata);
  }

  exportUnits(agentId: string): AsyncIterable<KnowledgeUnit> {
    return this.batches(
      `SELECT ku.seq, ${rows.UNIT_COLUMNS} FROM knowledge_units ku WHERE ku.agent_id = ? AND ku.seq > ? ORDER BY ku.seq LIMIT ?`,
      agentId,
      rows.toUnit,
    );
  }

  exportSkills(agentId: string): AsyncIterable<Skill> {
    return this.batches(
      `SELECT s.seq, ${rows.SKILL_COLUMNS} FROM skills s WHERE s.agent_id = ? AND s.seq > ? ORDER BY s.seq LIMIT ?`,
      agentId,
      rows.toSkill,
    );
  }

  exportVerdicts(agentId: string): AsyncIterable<Verdict> {
    return this.batches(
      'SELECT rowid AS seq, * FROM verdicts WHERE agent_id = ? AND rowid > ? ORDER BY rowid LIMIT ?',
      agentId,
      rows.toVerdict,
    );
  }

  exportHistory(agentId: string): AsyncIterable<ReputationEvent> {
    return this.batches(
      'SELECT * FROM reputation_events WHERE agent_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      agentId,
      rows.toEvent,
    );
  }

  /** Keyset pages of EXPORT_BATCH rows: no cursor stays open between batches, memory stays flat. */
  private async *batches<R, T>(sql: string, agentId: string, map: (row: R) => T) {
    const statement = this.stmt(sql);
    let after = 0;
    for (;;) {
      const batch = statement.all(agentId, after, EXPORT_BATCH) as (R & { seq: number })[];
      for (const row of batch) yield map(row);
      if (batch.length < EXPORT_BATCH) return;
      after = batch[batch.length - 1]!.seq;
    }
  }
}
