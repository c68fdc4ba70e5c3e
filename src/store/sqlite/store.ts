// The embedded store: SQLite through better-sqlite3, WAL journal, every write in a group commit (one
// fsync for the writes that arrive together), lists in read workers when asked for. Its reads are the
// ones every backend shares (../reads/), run on the writer's connection; what is SQLite's own is here:
// the connection, the writes, and the disk check.
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import { composeStore } from '../compose.js';
import { StoreUnavailableError, type IdempotentResponse, type Store } from '../store.js';
import { freeBytesOn, MIN_FREE_BYTES, openWriter, sqliteFilename, statementCache, type Prepare } from './connection.js';
import { sqliteDb } from './db.js';
import { ErasureCheckpoint } from './erasure.js';
import { GroupCommit } from './group-commit.js';
import { purgeResponses, saveResponse } from './idempotency.js';
import { ReadPool } from './read-pool.js';
import * as moderation from './moderation.js';
import * as skills from './skills.js';
import * as writes from './writes.js';

export { sqliteFilename };

const CACHE_KIB = 32 * 1024;
const READER_CACHE_KIB = 24 * 1024;
/** Lists waiting for a read worker at most; more answer 503, while gets and writes go on. */
const MAX_WAITING_READS = 64;

export interface SqliteOptions {
  /** Worker threads for lists (0: on the main thread; always 0 for `:memory:`). */
  readWorkers?: number;
  /** Free bytes on the database's disk (tests fake a full disk). */
  freeBytes?: () => number;
  /** Handed the writer's connection once it is open (tests set pragmas on it: a size limit, a full disk). */
  onConnection?: (connection: Database) => void;
}

export function openSqliteStore(url: string, options: SqliteOptions = {}): Store {
  const filename = sqliteFilename(url);
  const freeBytes = options.freeBytes ?? (filename === ':memory:' ? null : () => freeBytesOn(dirname(filename)));
  const connection = openWriter(filename, CACHE_KIB);
  options.onConnection?.(connection);
  const prepare = statementCache(connection);
  const commits = new GroupCommit(connection);
  const erasure = filename === ':memory:' ? null : new ErasureCheckpoint(connection);
  /** A deletion, answered once its text has left the database file and the WAL (erasure.ts). */
  const erasing = async (deleted: Promise<boolean>): Promise<boolean> => {
    const done = await deleted;
    if (done) await erasure?.afterDeletion();
    return done;
  };
  // An in-memory database lives in this thread only; so does every list when no worker is asked for.
  const workers = filename === ':memory:' ? 0 : (options.readWorkers ?? 0);
  const pool =
    workers > 0
      ? new ReadPool({ filename, cacheKib: READER_CACHE_KIB }, { workers, maxWaiting: MAX_WAITING_READS })
      : null;

  /** A write in the next group commit, with the idempotent response saved in the same transaction. */
  const write = <T>(work: (prepare: Prepare) => T, response?: IdempotentResponse): Promise<T> =>
    commits.write(() => {
      const result = work(prepare);
      saveResponse(prepare, response);
      return result;
    });
  /** The same, where only a write that happened is answered for again (a refusal is never replayed). */
  const writeIf = <T>(
    work: (prepare: Prepare) => T,
    happened: (result: T) => boolean,
    response?: IdempotentResponse,
  ): Promise<T> =>
    commits.write(() => {
      const result = work(prepare);
      if (happened(result)) saveResponse(prepare, response);
      return result;
    });

  const db = sqliteDb(connection, { prepare });
  return composeStore(
    db,
    {
      backend: 'sqlite',
      /** The database answers, and its disk has room for writes (a full disk would fail every write). */
      async ping() {
        prepare('SELECT 1').get();
        const free = freeBytes?.();
        if (free !== undefined && free < MIN_FREE_BYTES)
          throw new StoreUnavailableError(`the disk holding the database is full (${free} bytes free)`);
      },
      async close() {
        if (!connection.open) return;
        await pool?.close();
        commits.commitQueued();
        erasure?.stop();
        connection.close();
      },

      async claimOidcAgent(agentId, at) {
        await write((prepare) => {
          if (prepare('SELECT 1 FROM agents WHERE agent_id = ?').get(agentId) === undefined)
            writes.insertAgent(prepare, agentId, 'oidc', at);
        });
        return (
          prepare('SELECT origin FROM agents WHERE agent_id = ?').pluck(false).get(agentId) as {
            origin: 'api_key' | 'oidc';
          }
        ).origin;
      },
      createAgentWithKey: (key, response) =>
        write((prepare) => {
          writes.insertAgent(prepare, key.agentId, 'api_key', key.createdAt);
          writes.insertKey(prepare, key);
        }, response),
      addKey: (key, response) => write((prepare) => writes.insertKey(prepare, key), response),
      revokeKey: (keyId, at, response) =>
        writeIf(
          (prepare) => writes.revokeKey(prepare, keyId, at),
          (revoked) => revoked,
          response,
        ),
      purgeIdempotentResponses: (before) => write((prepare) => purgeResponses(prepare, before)),

      publishSkill: (plan, response, quota) =>
        write((prepare) => {
          skills.publish(prepare, plan, quota);
          if (plan.hold && plan.kind !== 'same') moderation.decide(prepare, plan.hold, null);
        }, response),
      setSkillYanked: (id, version, yanked, at) =>
        write((prepare) => skills.setYanked(prepare, id, version, yanked, at)),
      setSkillVisibility: (id, visibility, at) => write((prepare) => skills.setVisibility(prepare, id, visibility, at)),
      deleteSkill: (id, at) => erasing(write((prepare) => skills.deleteSkill(prepare, id, at))),
      /** Many new skills in one transaction, each through the ordinary publication. */
      importSkills: (items) =>
        write((prepare) => {
          for (const { plan } of items) {
            skills.publish(prepare, plan, undefined);
            if (plan.hold) moderation.decide(prepare, plan.hold, null);
          }
        }),

      contributeUnit: (unit, baseQuality, rewardMillis, response, quota, hold) =>
        write((prepare) => {
          writes.insertUnit(prepare, { unit, baseQuality }, quota);
          writes.reward(prepare, unit.agent_id, 'contribute_knowledge', rewardMillis, unit.id, unit.created_at);
          if (hold) moderation.decide(prepare, hold, null);
        }, response),
      deleteUnit: (id, at) => erasing(write((prepare) => writes.deleteUnit(prepare, id, at))),
      recordVerdict: (verdict, response) =>
        writeIf(
          (prepare) => writes.recordVerdict(prepare, verdict),
          (outcome) => outcome.recorded,
          response,
        ),
      importUnits: (items, rewardMillis) =>
        write((prepare) =>
          writes.importContributions(
            prepare,
            items,
            (item) => {
              writes.insertUnit(prepare, item);
              return { agentId: item.unit.agent_id, targetId: item.unit.id, at: item.unit.created_at };
            },
            'contribute_knowledge',
            rewardMillis,
          ),
        ),

      purgeSearchChanges: (keep) => write((prepare) => writes.purgeSearchChanges(prepare, keep)),
      fileReport: (report, quota, response) =>
        writeIf(
          (prepare) => moderation.fileReport(prepare, report, quota),
          (outcome) => outcome === 'filed',
          response,
        ),
      publishAdvisory: (advisory, response) =>
        write((prepare) => moderation.publishAdvisory(prepare, advisory), response),
      decide: (decision, expectHeld, response) =>
        writeIf(
          (prepare) => moderation.decide(prepare, decision, expectHeld),
          (outcome) => outcome === 'decided',
          response,
        ),
      saveVectors: (kind, model, vectors) => write((prepare) => writes.saveVectors(prepare, kind, model, vectors)),
    },
    pool ? { listUnits: (query) => pool.listUnits(query), listSkills: (query) => pool.listSkills(query) } : undefined,
  );
}
