// Reports, holds, appeals and decisions: what each is, and who may do what with them. A report names an
// item an agent can see, for a reason; an admin decides (hold, release, dismiss) with a reason code; the
// owner of a held item may appeal, into the same queue. Holding makes an item exist only for its owner and
// admins (the visibility rule, access.ts); the scanner's holds are decisions like a moderator's.
import type { Agent } from './caller.js';
import { conflict, forbidden } from './errors.js';

export const REPORT_REASONS = [
  'malware',
  'credential-theft',
  'prompt-injection',
  'spam',
  'impersonation',
  'copyright',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What an appeal is in the admins' queue: a report of the owner's, for this reason. */
export const APPEAL = 'appeal';

export const DECISION_ACTIONS = ['hold', 'release', 'dismiss'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** A decision's reason code: lower-case words joined by hyphens (`malware`, `false-positive`). */
export const REASON_CODE = '^[a-z][a-z0-9]*(-[a-z0-9]+)*$';

export type HeldBy = 'scanner' | 'moderator';

/** A hold, as its owner and admins see it on the item. */
export interface Hold {
  reason: string;
  by: HeldBy;
  at: string;
}

/** What a report or an appeal is about. */
export interface ModerationTarget {
  kind: 'skill' | 'unit';
  id: string;
  /** The skill version, when the report or decision is about one. */
  version: string | null;
  owner: string;
  /** A hold on exactly what is named (the whole item, or the version). */
  held: Hold | null;
  /** A skill's own hold (which hides its versions too); null for units. */
  skillHeld: Hold | null;
  /** Whether the public may see the item (a private skill's decisions stay out of the public log). */
  public: boolean;
  /** The security verdict of what is named (a skill: its default version), null before it was scanned. */
  verdict: string | null;
}

/** Whether a viewer sees what a report or an appeal names (the visibility rule, access.ts, on the target). */
export function targetVisibleTo(
  viewer: { agentId: string | null; everything: boolean },
  target: ModerationTarget,
): boolean {
  if (viewer.everything || target.owner === viewer.agentId) return true;
  return target.public && target.skillHeld === null && target.held === null;
}

/** Nobody reports their own item (403); what a caller cannot see was already answered 404 by the caller. */
export function assertMayReport(agent: Agent, target: Pick<ModerationTarget, 'owner'>): void {
  if (target.owner === agent.agentId) throw forbidden('an agent may not report its own skill or unit');
}

/** Only the owner appeals (403), and only a hold (409: there is nothing to appeal otherwise). */
export function assertMayAppeal(agent: Agent, target: Pick<ModerationTarget, 'owner' | 'held'>): void {
  if (target.owner !== agent.agentId) throw forbidden('only the owner of a held item may appeal its hold');
  if (target.held === null) throw conflict('this item is not held: there is nothing to appeal');
}

/**
 * Whether a decision changes anything: a hold of what is already held, or a release of what is not, is
 * refused (409) rather than logged as if it did something; a dismissal only closes reports.
 */
export function assertDecisionApplies(action: DecisionAction, target: Pick<ModerationTarget, 'held'>): void {
  if (action === 'hold' && target.held !== null) throw conflict('this item is already held');
  if (action === 'release' && target.held === null)
    throw conflict('this item is not held: there is nothing to release');
}

/** Where a report sorts in the queue: by its reporter's standing (verdicts.ts), in thousandths. */
export const reportStanding = (verdictWeight: number): number => Math.round(verdictWeight * 1000);
