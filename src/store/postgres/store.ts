// The PostgreSQL store, for several instances sharing one database. Its reads are the ones every backend
// shares (../reads/); what is PostgreSQL's own is here: the pool, migrations at open, and the writes,
// each with its idempotent answer saved with it, in the instance's next group commit (group-commit.ts).
import type { PoolClient } from 'pg';
import * as rows from '../rows.js';
import { composeStore } from '../compose.js';
import { AgentExistsError, type IdempotentResponse, type Store } from '../store.js';
import { appliedMigrations, createPool, inTransaction, migrate, run, type PoolOptions } from './connection.js';
import { postgresDb } from './db.js';
import { refuseUnstorable } from './errors.js';
import { GroupCommit, retryingConflicts, Sent, type Work } from './group-commit.js';
import { purgeResponses, saveResponse } from './idempotency.js';
import * as moderation from './moderation.js';
import * as skills from './skills.js';
import { FOLD_EVERY_MS, foldUnitCounts, VACUUM_CHECK_EVERY_MS, vacuumUnitCounts } from './unit-counts.js';
import * as verdicts from './verdicts.js';
import * as writes from './writes.js';

/** A PostgreSQL store, and the migration versions its database has recorded. */
export type PostgresStore = Store & { appliedMigrations(): Promise<number[]> };

/** Opens the pool after bringing the schema up to date, so the store answers nothing on an old schema. */
export async function openPostgresStore(url: string, options: PoolOptions = {}): Promise<PostgresStore> {
  await migrate(url, options);
  const pool = createPool(url, options);
  let closed = false;
  const folding = setInterval(() => {
    foldUnitCounts(pool).catch((error: Error) =>
      options.log?.warn({ reason: error.message }, 'folding the unit counts failed; lists still count them exactly'),
    );
  }, FOLD_EVERY_MS);
  folding.unref();
  let vacuumed: Promise<unknown> = Promise.resolve();
  const vacuum = () => {
    if (closed) return;
    vacuumed = vacuumUnitCounts(pool).catch((error: Error) =>
      options.log?.warn({ reason: error.message }, 'vacuuming the unit counts failed; the next check tries again'),
    );
  };
  // At once too: a bulk import before the start may have left a million dead rows.
  const vacuuming = setInterval(vacuum, VACUUM_CHECK_EVERY_MS);
  vacuuming.unref();
  vacuum();

  // The groups' own connection, pipelined (one group is written at a time): one connection more than the pool's.
  const groupPool = createPool(url, { ...options, max: 1 }, true);
  const group = new GroupCommit(pool, groupPool);

  /**
   * A write, with its idempotent response saved with it, only when `happened` says the write took place (a
   * refusal is never replayed). It joins the next group commit (run again when it lost a deadlock).
   */
  const writeIf = <T>(work: Work<T>, happened: (result: T) => boolean, response?: IdempotentResponse): Promise<T> =>
    group.write(async (client) => {
      const result = await work(client);
      const value = result instanceof Sent ? result.value : result;
      if (!response || !happened(value)) return result;
      // Sent right behind a last statement left unanswered, and answered with it.
      const saved = saveResponse(client, response);
      if (result instanceof Sent) return new Sent(value, Promise.all([result.last, saved]));
      await saved;
      return value;
    });
  const write = <T>(work: Work<T>, response?: IdempotentResponse): Promise<T> => writeIf(work, () => true, response);
  /** A bulk write (imports) in a transaction of its own, so it never holds up the writes of a group. */
  const writeAlone = <T>(work: (client: PoolClient) => Promise<T>): Promise<T> =>
    retryingConflicts(() => inTransaction(pool, work));
  const unstorableSkill = (plan: Parameters<Store['publishSkill']>[0]) =>
    refuseUnstorable({ ...plan.version, files: plan.version.files.map((f) => f.path) });

  const store = composeStore(postgresDb(pool), {
    backend: 'postgres',
    async ping() {
      await run(pool, 'SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(folding);
      clearInterval(vacuuming);
      await Promise.all([group.drain(), vacuumed]);
      await Promise.all([groupPool.end(), pool.end()]);
    },

    async claimOidcAgent(agentId, at) {
      refuseUnstorable(agentId, 'agent_id');
      // The claim and the read that follows are separate statements on purpose: the SELECT takes a fresh
      // snapshot, so it sees a row that a concurrent instance committed after the INSERT's was taken.
      try {
        await write((client) => writes.insertAgent(client, agentId, 'oidc', at));
      } catch (error) {
        if (!(error instanceof AgentExistsError)) throw error;
      }
      return (
        await run<{ origin: 'api_key' | 'oidc' }>(pool, 'SELECT origin FROM agents WHERE agent_id = $1', [agentId])
      ).rows[0]!.origin;
    },
    async createAgentWithKey(key, response) {
      refuseUnstorable(key);
      await write(async (client) => {
        await writes.insertAgent(client, key.agentId, 'api_key', key.createdAt);
        await writes.insertKey(client, key);
      }, response);
    },
    async addKey(key, response) {
      refuseUnstorable(key);
      await write((client) => writes.insertKey(client, key), response);
    },
    revokeKey: (keyId, at, response) =>
      writeIf(
        (client) => writes.revokeKey(client, keyId, at),
        (revoked) => revoked,
        response,
      ),
    purgeIdempotentResponses: (before) => purgeResponses(pool, before),

    async publishSkill(plan, response, quota) {
      unstorableSkill(plan);
      await write(async (client) => {
        await skills.publish(client, plan, quota);
        if (plan.hold && plan.kind !== 'same') await moderation.decide(client, plan.hold, null);
      }, response);
    },
    setSkillYanked: (id, version, yanked, at) => write((client) => skills.setYanked(client, id, version, yanked, at)),
    setSkillVisibility: (id, visibility, at) => write((client) => skills.setVisibility(client, id, visibility, at)),
    deleteSkill: (id, at) => write((client) => skills.deleteSkill(client, id, at)),
    /** Many new skills in one transaction, each through the ordinary publication. */
    async importSkills(items) {
      if (items.length === 0) return;
      for (const { plan } of items) unstorableSkill(plan);
      await writeAlone(async (client) => {
        for (const { plan } of items) {
          await skills.publish(client, plan, undefined);
          if (plan.hold) await moderation.decide(client, plan.hold, null);
        }
      });
    },

    async contributeUnit(unit, baseQuality, rewardMillis, response, quota, hold) {
      refuseUnstorable(unit);
      await write(async (client) => {
        const sent = writes.contribute(client, { unit, baseQuality }, rewardMillis, quota);
        if (!hold) return sent;
        // A held unit: its contribution answered first, then the scanner's hold in the same transaction.
        await sent.last;
        await moderation.decide(client, hold, null);
        return undefined;
      }, response);
    },
    deleteUnit: (id, at) => write((client) => writes.deleteUnit(client, id, at)),
    recordVerdict(verdict, response) {
      refuseUnstorable({ unit_id: verdict.unitId, agent_id: verdict.agentId, feedback: verdict.feedback });
      return writeIf(
        (client) => verdicts.recordVerdict(client, verdict),
        (outcome) => outcome.recorded,
        response,
      );
    },
    async importUnits(items, rewardMillis) {
      if (items.length === 0) return;
      for (const { unit } of items) refuseUnstorable(unit);
      await writeAlone(async (client) => {
        await writes.insertUnits(client, items);
        const rewarded = items.map(({ unit }) => ({
          agentId: unit.agent_id,
          targetId: unit.id,
          at: unit.created_at,
          usage: { units: 1, skills: 0, bytes: rows.unitBytes(unit) },
        }));
        await writes.reward(client, rewarded, 'contribute_knowledge', rewardMillis);
      });
    },

    purgeSearchChanges: (keep) => writes.purgeSearchChanges(pool, keep),
    fileReport: (report, quota, response) =>
      writeIf(
        (client) => moderation.fileReport(client, report, quota),
        (outcome) => outcome === 'filed',
        response,
      ),
    publishAdvisory: (advisory, response) => write((client) => moderation.publishAdvisory(client, advisory), response),
    decide: (decision, expectHeld, response) =>
      writeIf(
        (client) => moderation.decide(client, decision, expectHeld),
        (outcome) => outcome === 'decided',
        response,
      ),
    saveVectors: (kind, model, vectors) => writes.saveVectors(pool, kind, model, vectors),
  });
  return {
    ...store,
    appliedMigrations: () => appliedMigrations(pool),
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
