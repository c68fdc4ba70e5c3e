// Advisory schemas: an advisory as an admin publishes it, the OSV record every reader gets, and the
// query that answers a whole lock file at once.
import { Type } from 'typebox';
import { ADVISORY_SEVERITIES, OSV_ECOSYSTEM } from '../../domain/advisories.js';
import { closed, Limit, Offset, pageOf, Timestamp } from './common.js';

const SkillId = Type.String({ minLength: 1, maxLength: 300, description: 'a skill id' });
const VersionNumber = Type.String({ minLength: 1, maxLength: 64, description: 'a version of the skill' });

export const AdvisoryBody = Type.Object(
  {
    skill_id: SkillId,
    versions: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'the affected versions, a semver range: "<1.2.0", ">=1.0.0 <2.0.0", "*"',
    }),
    severity: Type.Enum([...ADVISORY_SEVERITIES]),
    summary: Type.String({ minLength: 1, maxLength: 200 }),
    details: Type.String({ minLength: 1, maxLength: 10_000 }),
  },
  closed,
);

const Event = Type.Union([
  Type.Object({ introduced: Type.String() }),
  Type.Object({ fixed: Type.String() }),
  Type.Object({ last_affected: Type.String() }),
]);

const OsvRecord = Type.Object(
  {
    schema_version: Type.String(),
    id: Type.String(),
    modified: Timestamp,
    published: Timestamp,
    summary: Type.String(),
    details: Type.String(),
    affected: Type.Array(
      Type.Object({
        package: Type.Object({
          ecosystem: Type.String({ description: `always ${OSV_ECOSYSTEM}` }),
          name: Type.String({ description: '<publisher>/<skill name>' }),
        }),
        ranges: Type.Array(Type.Object({ type: Type.Literal('SEMVER'), events: Type.Array(Event) })),
        versions: Type.Array(Type.String(), { description: 'the versions in the range when it was published' }),
        database_specific: Type.Object({
          skill_id: Type.String(),
          severity: Type.Enum([...ADVISORY_SEVERITIES]),
          range: Type.String({ description: 'the range as the admin gave it' }),
        }),
      }),
    ),
  },
  { description: 'An advisory as an OSV record (schema 1.6)' },
);

export const AdvisoryOne = Type.Object({ data: OsvRecord }, { description: 'The advisory' });
export const AdvisoryParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'an advisory id (KREG-…)' }) },
  closed,
);
export const AdvisoryQuery = Type.Object(
  {
    skill_id: Type.Optional(SkillId),
    modified_since: Type.Optional(Type.String({ format: 'date-time', description: 'only those modified since then' })),
    limit: Limit,
    offset: Offset,
  },
  closed,
);
export const AdvisoryPage = pageOf(OsvRecord, 'Advisories, the most recently modified first');

export const AuditBody = Type.Object(
  {
    skills: Type.Array(Type.Object({ id: SkillId, version: VersionNumber }, closed), {
      minItems: 1,
      maxItems: 1_000,
      description: 'the locked skills: at most 1,000',
    }),
  },
  closed,
);
export const AuditAnswer = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        id: Type.String(),
        version: Type.String(),
        found: Type.Boolean({ description: 'false: no such skill or version that the caller may see' }),
        yanked: Type.Boolean(),
        held: Type.Boolean(),
        verdict: Type.Union([Type.String(), Type.Null()]),
        advisories: Type.Array(OsvRecord),
      }),
    ),
  },
  { description: 'One entry per requested skill, in the order asked' },
);
