// Advisories: what the registry tells those who installed a skill when some of its versions turn out to be
// harmful. Each is an OSV record (schema 1.6), so tools that read OSV read them: the skill is a package of
// the registry's ecosystem named `<publisher>/<skill name>`, the affected versions a SEMVER range (the npm
// range an admin gave, as events) and the list of versions published then that fall in it.
import semver from 'semver';
import { badRequest } from './errors.js';

export const ADVISORY_SEVERITIES = ['low', 'moderate', 'high', 'critical'] as const;
export type AdvisorySeverity = (typeof ADVISORY_SEVERITIES)[number];

/** The ecosystem name OSV records of this registry use. */
export const OSV_ECOSYSTEM = 'Knowledge-Registry';
export const OSV_SCHEMA_VERSION = '1.6.0';

type OsvEvent = { introduced: string } | { fixed: string } | { last_affected: string };

export interface OsvRecord {
  schema_version: string;
  id: string;
  modified: string;
  published: string;
  summary: string;
  details: string;
  affected: {
    package: { ecosystem: string; name: string };
    ranges: { type: 'SEMVER'; events: OsvEvent[] }[];
    versions: string[];
    database_specific: { skill_id: string; severity: AdvisorySeverity; range: string };
  }[];
}

const options = { includePrerelease: true };

/** A semver range as an admin writes it (`<1.2.0`, `>=1.0.0 <2`, `*`), checked: a 400 naming the field otherwise. */
export function advisoryRange(range: string): semver.Range {
  const parsed = semver.validRange(range, options) === null ? null : new semver.Range(range, options);
  if (!parsed) throw badRequest(`versions must be a semver range (e.g. "<1.2.0" or ">=1.0.0 <2.0.0"), not "${range}"`);
  return parsed;
}

/**
 * The range as OSV SEMVER events, one range per alternative (`||`): its lower bound introduces (0 without
 * one; an exclusive bound is kept as inclusive, the record's `versions` list being exact), its upper bound
 * fixes (`<`) or is the last affected (`<=`).
 */
function osvRanges(range: semver.Range): OsvRecord['affected'][number]['ranges'] {
  return range.set.map((comparators) => {
    let introduced = '0';
    let end: OsvEvent | null = null;
    for (const c of comparators) {
      if (c.operator === '' && c.value === '') continue; // any version
      const version = c.semver.version;
      if (c.operator === '>=' || c.operator === '>') introduced = version;
      else if (c.operator === '<') end = { fixed: version };
      else if (c.operator === '<=') end = { last_affected: version };
      else {
        introduced = version;
        end = { last_affected: version };
      }
    }
    return { type: 'SEMVER' as const, events: [{ introduced }, ...(end ? [end] : [])] };
  });
}

/** Whether a version is affected by an advisory's range. */
export const affects = (range: string, version: string): boolean =>
  semver.valid(version) !== null && semver.satisfies(version, range, options);

export function osvRecord(advisory: {
  id: string;
  skillId: string;
  publisher: string;
  skillName: string;
  range: string;
  severity: AdvisorySeverity;
  summary: string;
  details: string;
  published: string;
  modified: string;
  /** Every version of the skill published when the record is made. */
  versions: readonly string[];
}): OsvRecord {
  const range = advisoryRange(advisory.range);
  return {
    schema_version: OSV_SCHEMA_VERSION,
    id: advisory.id,
    modified: advisory.modified,
    published: advisory.published,
    summary: advisory.summary,
    details: advisory.details,
    affected: [
      {
        package: { ecosystem: OSV_ECOSYSTEM, name: `${advisory.publisher}/${advisory.skillName}` },
        ranges: osvRanges(range),
        versions: advisory.versions.filter((v) => affects(advisory.range, v)),
        database_specific: { skill_id: advisory.skillId, severity: advisory.severity, range: advisory.range },
      },
    ],
  };
}

/** An advisory as a skill's page and MCP `get_skill` show it: whether it affects the version shown. */
export interface AdvisoryBrief {
  id: string;
  summary: string;
  severity: AdvisorySeverity;
  /** The affected versions, the range as the admin gave it. */
  versions: string;
  /** It affects the version shown. */
  affects_this_version: boolean;
}

/** The briefs of the advisories about a skill, as they bear on one of its versions; the most severe first. */
export function advisoryBriefs(records: readonly OsvRecord[], skillId: string, version: string): AdvisoryBrief[] {
  const rank: Record<AdvisorySeverity, number> = { low: 0, moderate: 1, high: 2, critical: 3 };
  return records
    .flatMap((record) =>
      record.affected
        .filter((a) => a.database_specific.skill_id === skillId)
        .map((a) => ({
          id: record.id,
          summary: record.summary,
          severity: a.database_specific.severity,
          versions: a.database_specific.range,
          affects_this_version: affects(a.database_specific.range, version),
        })),
    )
    .sort(
      (a, b) => Number(b.affects_this_version) - Number(a.affects_this_version) || rank[b.severity] - rank[a.severity],
    );
}
