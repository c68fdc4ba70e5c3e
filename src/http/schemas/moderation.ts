// Moderation schemas: a report, an appeal and a decision as they are sent; the queue, the log and the
// answers around them.
import { Type, type Static } from 'typebox';
import { DECISION_ACTIONS, REASON_CODE, REPORT_REASONS } from '../../domain/moderation.js';
import { closed, Limit, Offset, pageOf, Timestamp } from './common.js';

const Target = Type.String({ minLength: 1, maxLength: 300, description: 'a skill id or a knowledge unit id' });
const Version = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'one version of the skill (absent: all of it)',
});

export const ReportBody = Type.Object(
  {
    target: Target,
    version: Type.Optional(Version),
    reason: Type.Enum([...REPORT_REASONS]),
    details: Type.Optional(Type.String({ maxLength: 2_000 })),
  },
  closed,
);
export type ReportBody = Static<typeof ReportBody>;

export const AppealBody = Type.Object(
  {
    target: Target,
    version: Type.Optional(Version),
    message: Type.String({ minLength: 1, maxLength: 2_000, description: 'why the hold should be released' }),
  },
  closed,
);

export const DecisionBody = Type.Object(
  {
    target: Target,
    version: Type.Optional(Version),
    action: Type.Enum([...DECISION_ACTIONS]),
    reason: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: REASON_CODE,
      description: 'a reason code: malware, false-positive…',
    }),
    note: Type.Optional(Type.String({ maxLength: 2_000, description: 'for the admins: never in the public log' })),
    report_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 })),
  },
  closed,
);

const ReportAnswer = Type.Object({
  id: Type.String(),
  target: Type.String(),
  version: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  status: Type.Literal('open'),
  created_at: Timestamp,
});
export const ReportCreated = Type.Object({ data: ReportAnswer }, { description: 'The report (or appeal), open' });

export const ReportQueueQuery = Type.Object(
  { status: Type.Optional(Type.Enum(['open', 'closed'])), limit: Limit, offset: Offset },
  closed,
);

const QueueItem = Type.Object({
  id: Type.String(),
  reporter: Type.String(),
  target: Type.String(),
  target_kind: Type.Enum(['skill', 'unit']),
  version: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String({ description: 'a report reason, or appeal' }),
  details: Type.String(),
  status: Type.Enum(['open', 'closed']),
  standing: Type.Number({
    description: "the reporter's standing when it reported, 0.1 to 1; the queue is ordered by it",
  }),
  created_at: Timestamp,
  closed_at: Type.Union([Timestamp, Type.Null()]),
  decision_id: Type.Union([Type.String(), Type.Null()]),
  target_state: Type.Object({
    exists: Type.Boolean(),
    held: Type.Boolean(),
    verdict: Type.Union([Type.String(), Type.Null()]),
  }),
});
export const ReportQueue = pageOf(QueueItem, 'Reports and appeals: open ones by standing, then oldest first');

const DecisionAnswer = Type.Object({
  id: Type.String(),
  target: Type.String(),
  version: Type.Union([Type.String(), Type.Null()]),
  action: Type.Enum([...DECISION_ACTIONS]),
  reason: Type.String(),
  by: Type.Enum(['scanner', 'moderator']),
  at: Timestamp,
});
export const DecisionCreated = Type.Object({ data: DecisionAnswer }, { description: 'The decision, applied' });
export const ModerationLogPage = pageOf(DecisionAnswer, 'Every public decision, newest first');
export const LogQuery = Type.Object({ limit: Limit, offset: Offset }, closed);
