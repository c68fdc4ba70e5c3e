// A moderation decision as the store writes and the log keeps it (a moderator's, or the scanner's hold at
// publication, which a publication plan carries). Re-exported from store.ts.
import type { DecisionAction, HeldBy } from '../domain/moderation.js';

/** A moderation decision (or the scanner's hold), as the log keeps it. */
export interface DecisionRecord {
  id: string;
  target: { kind: 'skill' | 'unit'; id: string };
  version: string | null;
  action: DecisionAction;
  reason: string;
  note: string;
  by: HeldBy;
  /** The admin who decided (null: the scanner); kept for audit, never in the public log. */
  moderator: string | null;
  at: string;
}

export interface NewDecision extends DecisionRecord {
  /** Whether the public saw the item when it was decided (the public log shows only those). */
  public: boolean;
  /** Reports (and appeals) this decision closes: only open ones of the same target close. */
  reportIds: readonly string[];
}
