// Migration 14: an agent id's skeleton is what it looks like with case set aside, closed over both (so
// `AIice` and `ALlCE` are confusable with `alice`), one per agent instead of two (as SQLite's, the same number).
// The stored skeletons were computed by the earlier rule, which SQL cannot compute again: the backfill
// does, in the same transaction.
// Never edit a migration that has shipped: add the next number.
export const name = 'look-alike ids: one skeleton, case folded on the look';

// Two agents whose ids only the new rule finds confusable both keep their ids: the older holds the
// skeleton (the first to claim it, as when migration 4 filled the table), the other holds none, and
// anything confusable with either is refused through the older's.
export const sql = `DELETE FROM agent_skeletons;`;

export { backfill } from './004-standing-quotas-lookalikes.js';
