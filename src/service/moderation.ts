// Reports, appeals and decisions: an agent reports what it can see (never its own), within its tier's daily
// quota; the owner of a held item appeals; admins read the queue and decide (hold, release, dismiss); the
// public reads the log. What is held is decided by the store in the decision's own transaction, so a hold
// and its entry in the log never part.
import { viewerOf } from '../domain/access.js';
import type { Agent } from '../domain/caller.js';
import { ApiError, conflict, notFound } from '../domain/errors.js';
import {
  APPEAL,
  assertDecisionApplies,
  assertMayAppeal,
  assertMayReport,
  reportStanding,
  targetVisibleTo,
  type DecisionAction,
  type ModerationTarget,
  type ReportReason,
} from '../domain/moderation.js';
import { ACCESS } from '../domain/operations.js';
import { verdictWeight } from '../domain/verdicts.js';
import type { DecisionRecord, Page, ReportRecord } from '../store/store.js';
import type { Change, Context } from './context.js';
import { operation } from './operation.js';

/** A report or an appeal as its author is answered. */
export interface ReportAnswer {
  id: string;
  target: string;
  version: string | null;
  reason: string;
  status: 'open';
  created_at: string;
}

const answerOf = (r: Pick<ReportRecord, 'id' | 'target' | 'version' | 'reason' | 'createdAt'>): ReportAnswer => ({
  id: r.id,
  target: r.target.id,
  version: r.version,
  reason: r.reason,
  status: 'open',
  created_at: r.createdAt,
});

/** The item a report or appeal names, when the agent may see it; 404 otherwise (whether it exists or not). */
async function visibleTarget(
  ctx: Context,
  agent: Agent,
  id: string,
  version: string | null,
): Promise<ModerationTarget> {
  const target = await ctx.store.moderationTarget(id, version);
  if (!target || !targetVisibleTo(viewerOf(agent), target))
    throw notFound(version === null ? 'skill or knowledge unit' : `version ${version} of this skill`);
  return target;
}

/** The start of the UTC day of `at`, and the seconds to the next one. */
function utcDay(at: Date): { since: string; secondsLeft: number } {
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return { since: new Date(start).toISOString(), secondsLeft: Math.ceil((start + 86_400_000 - at.getTime()) / 1000) };
}

export const fileReport = operation(
  ACCESS.fileReport,
  async (
    ctx,
    agent,
    body: { target: string; version?: string; reason: ReportReason; details?: string },
  ): Promise<Change<{ data: ReportAnswer }>> => {
    const version = body.version ?? null;
    const target = await visibleTarget(ctx, agent, body.target, version);
    assertMayReport(agent, target);
    const standing = await ctx.store.reputation(agent.agentId, 0);
    const at = ctx.clock();
    const report = {
      id: ctx.ids.reportId(),
      reporter: agent.agentId,
      target: { kind: target.kind, id: target.id },
      version,
      reason: body.reason,
      details: body.details ?? '',
      standing: reportStanding(verdictWeight(standing?.contributions ?? 0)) / 1000,
      createdAt: at.toISOString(),
    };
    const day = utcDay(at);
    // An agent always has a key's tier (anonymous callers were refused before).
    const perDay = agent.tier === 'anonymous' ? 0 : ctx.config.reportsPerDay[agent.tier];
    return {
      status: 201,
      body: { data: answerOf(report) },
      at,
      async write(response) {
        const outcome = await ctx.store.fileReport(report, { perDay, since: day.since }, response);
        if (outcome === 'duplicate')
          throw conflict('this agent already has an open report of this item; it stays in the queue until decided');
        if (outcome === 'quota')
          throw new ApiError(
            429,
            'RATE_LIMITED',
            `report quota reached: the ${agent.tier} tier files at most ${perDay} reports a day (UTC); try again tomorrow`,
            { 'retry-after': String(day.secondsLeft) },
          );
      },
    };
  },
);

export const fileAppeal = operation(
  ACCESS.fileAppeal,
  async (
    ctx,
    agent,
    body: { target: string; version?: string; message: string },
  ): Promise<Change<{ data: ReportAnswer }>> => {
    const version = body.version ?? null;
    const target = await visibleTarget(ctx, agent, body.target, version);
    assertMayAppeal(agent, target);
    const now = ctx.clock();
    const at = now.toISOString();
    const appeal = {
      id: ctx.ids.reportId(),
      reporter: agent.agentId,
      target: { kind: target.kind, id: target.id },
      version,
      reason: APPEAL,
      details: body.message,
      // An owner's appeal is about its own item: it comes first among equals, whatever its standing.
      standing: 1,
      createdAt: at,
    };
    return {
      status: 201,
      body: { data: answerOf(appeal) },
      at: now,
      async write(response) {
        const outcome = await ctx.store.fileReport(appeal, { perDay: null, since: at }, response);
        if (outcome !== 'filed') throw conflict('an appeal of this hold is already open');
      },
    };
  },
);

/** An item of the admins' queue: the report or appeal with its target's hold and verdict as they are now. */
export interface QueueItem {
  id: string;
  reporter: string;
  target: string;
  target_kind: 'skill' | 'unit';
  version: string | null;
  reason: string;
  details: string;
  status: 'open' | 'closed';
  standing: number;
  created_at: string;
  closed_at: string | null;
  decision_id: string | null;
  /** The target now: gone (deleted), held or not, and its security verdict. */
  target_state: { exists: boolean; held: boolean; verdict: string | null };
}

export const listReports = operation(
  ACCESS.listReports,
  async (
    ctx,
    _admin,
    query: { status: 'open' | 'closed'; limit: number; offset: number },
  ): Promise<Page<QueueItem>> => {
    const page = await ctx.store.listReports(query.status, query);
    const items = await Promise.all(
      page.items.map(async (r): Promise<QueueItem> => {
        const target = await ctx.store.moderationTarget(r.target.id, r.version);
        return {
          id: r.id,
          reporter: r.reporter,
          target: r.target.id,
          target_kind: r.target.kind,
          version: r.version,
          reason: r.reason,
          details: r.details,
          status: r.status,
          standing: r.standing,
          created_at: r.createdAt,
          closed_at: r.closedAt,
          decision_id: r.decisionId,
          target_state: {
            exists: target !== null,
            held: target !== null && (target.held !== null || target.skillHeld !== null),
            verdict: target?.verdict ?? null,
          },
        };
      }),
    );
    return { items, total: page.total };
  },
);

export interface DecisionAnswer {
  id: string;
  target: string;
  version: string | null;
  action: DecisionAction;
  reason: string;
  by: 'scanner' | 'moderator';
  at: string;
}

const decisionOf = (d: DecisionRecord): DecisionAnswer => ({
  id: d.id,
  target: d.target.id,
  version: d.version,
  action: d.action,
  reason: d.reason,
  by: d.by,
  at: d.at,
});

export const decide = operation(
  ACCESS.decide,
  async (
    ctx,
    admin,
    body: {
      target: string;
      version?: string;
      action: DecisionAction;
      reason: string;
      note?: string;
      report_ids?: string[];
    },
  ): Promise<Change<{ data: DecisionAnswer }>> => {
    const version = body.version ?? null;
    const target = await ctx.store.moderationTarget(body.target, version);
    if (!target) throw notFound(version === null ? 'skill or knowledge unit' : `version ${version} of this skill`);
    assertDecisionApplies(body.action, target);
    const now = ctx.clock();
    const decision = {
      id: ctx.ids.decisionId(),
      target: { kind: target.kind, id: target.id },
      version,
      action: body.action,
      reason: body.reason,
      note: body.note ?? '',
      by: 'moderator' as const,
      moderator: admin.agentId,
      at: now.toISOString(),
      public: target.public,
      reportIds: body.report_ids ?? [],
    };
    const expectHeld = body.action === 'hold' ? false : body.action === 'release' ? true : null;
    return {
      status: 201,
      body: { data: decisionOf(decision) },
      at: now,
      async write(response) {
        const outcome = await ctx.store.decide(decision, expectHeld, response);
        if (outcome === 'not_found') throw notFound('skill or knowledge unit');
        if (outcome === 'stale') throw conflict('the item was held or released meanwhile; read it again and decide');
      },
    };
  },
);

export const moderationLog = operation(
  ACCESS.moderationLog,
  async (ctx, _caller, page: { limit: number; offset: number }): Promise<Page<DecisionAnswer>> => {
    const log = await ctx.store.moderationLog(page);
    return { items: log.items.map(decisionOf), total: log.total };
  },
);
