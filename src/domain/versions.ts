// Skill versions: semver, immutable, never reused. A skill is identified by its publisher and name;
// publishing again adds a version, unless the content is identical to one it already has. Pure rules:
// the store reads what they need (a few facts about a skill's versions, found through an index) and
// applies what they decide; its order of versions is the sort key defined here.
import semver from 'semver';

/** The version a skill's first publication gets when its SKILL.md names none. */
export const FIRST_VERSION = '1.0.0';
/** The longest version the registry takes (every version route addresses up to this). */
export const MAX_VERSION_LENGTH = 64;
/** The largest major, minor or patch number: the next patch after it is still a safe integer. */
export const MAX_VERSION_NUMBER = 999_999_999_999_999;

export interface ExistingVersion {
  version: string;
  yanked: boolean;
}

/** What a publication needs to know of a skill's versions (each found through an index, not a scan). */
export interface VersionFacts {
  /** The version whose content has the candidate's digest, if one has. */
  same: string | null;
  /** Whether a version of the requested one's precedence exists. */
  taken: boolean;
  /** The highest version ever published, yanked ones included. */
  highest: string | null;
}

export type VersionDecision =
  /** The same content is already published: answer with that version, write nothing. */
  | { kind: 'same'; version: string }
  | { kind: 'new'; version: string }
  /** The version the SKILL.md asks for is taken by different content (versions are immutable). */
  | { kind: 'taken'; version: string }
  /** No version was asked for, and the highest one has no next patch within the bounds. */
  | { kind: 'exhausted'; version: string };

/** Why a semantic version is outside the registry's bounds, or null when it is within them. */
export function versionProblem(version: string): string | null {
  if (version.length > MAX_VERSION_LENGTH) return `must be at most ${MAX_VERSION_LENGTH} characters`;
  const parsed = semver.parse(version);
  if (!parsed) return 'must be a semantic version, e.g. 1.2.3';
  if ([parsed.major, parsed.minor, parsed.patch].some((n) => n > MAX_VERSION_NUMBER)) {
    return `must have major, minor and patch numbers of at most ${MAX_VERSION_NUMBER}`;
  }
  return null;
}

/**
 * A requested version as semver, with a note when it had to be read loosely (`1.0` → `1.0.0`), or the
 * bound it breaks (a publication asking for it is refused).
 */
export function readVersion(requested: string | null): {
  version: string | null;
  note: string | null;
  problem?: string;
} {
  if (requested === null || requested.trim() === '') return { version: null, note: null };
  const given = requested.trim();
  const exact = semver.valid(given);
  if (exact) {
    const problem = versionProblem(exact);
    return problem
      ? {
          version: null,
          note: null,
          problem: `version ${JSON.stringify(given.slice(0, MAX_VERSION_LENGTH))}… ${problem}`,
        }
      : { version: exact, note: null };
  }
  const coerced = semver.coerce(given, { includePrerelease: true })?.version ?? null;
  if (coerced && given.length <= MAX_VERSION_LENGTH && versionProblem(coerced) === null) {
    return { version: coerced, note: `version ${JSON.stringify(given)} is not semver; published as ${coerced}` };
  }
  return {
    version: null,
    note: `version ${JSON.stringify(given.slice(0, 64))} is not a version number; the next patch version was used`,
  };
}

/**
 * What publishing a candidate does to a skill with these version facts: identical content returns the
 * version that has it; a requested version is used when free; otherwise the next patch after the highest
 * version ever published (yanked ones included, so no number is reused).
 */
export function decideVersion(facts: VersionFacts, requested: string | null): VersionDecision {
  if (facts.same !== null) return { kind: 'same', version: facts.same };
  if (requested !== null) return { kind: facts.taken ? 'taken' : 'new', version: requested };
  if (facts.highest === null) return { kind: 'new', version: FIRST_VERSION };
  // The patch after a pre-release is its release (1.1.0-beta.1 → 1.1.0), after a release the next patch.
  const next = semver.inc(facts.highest, 'patch');
  return next !== null && versionProblem(next) === null
    ? { kind: 'new', version: next }
    : { kind: 'exhausted', version: facts.highest };
}

const number = (digits: string | number) => `${String(digits).length.toString().padStart(2, '0')}${digits}`;

/**
 * A text whose byte order is semver precedence (build metadata aside): a store orders versions and finds
 * the highest through an index on it. Numbers are written with their length first, so any size compares
 * right; a release ends in `~`, above every pre-release of it (`-`, then its identifiers: numeric ones
 * `0<length><digits>`, below alphanumeric ones `1<text>`, separated by `!`, below every identifier
 * character, so a shorter list of identifiers ranks first).
 */
export function versionSortKey(version: string): string {
  const parsed = semver.parse(version);
  if (!parsed) throw new Error(`not a semantic version: ${version}`);
  const core = [parsed.major, parsed.minor, parsed.patch].map(number).join('.');
  if (parsed.prerelease.length === 0) return `${core}~`;
  const identifiers = parsed.prerelease.map((id) =>
    typeof id === 'number' || /^\d+$/.test(id) ? `0${number(id)}` : `1${id}`,
  );
  return `${core}-${identifiers.join('!')}`;
}

/** A release, not a pre-release: reads prefer the highest release to any pre-release. */
export const isRelease = (version: string): boolean => semver.prerelease(version) === null;

/** The version reads give once `published` is added to a skill whose current default is `current` (null: none yet, or all yanked). */
export function latestAfter(current: string | null, published: string): string {
  return latestVersion([
    ...(current === null ? [] : [{ version: current, yanked: false }]),
    { version: published, yanked: false },
  ])!;
}

/**
 * The version reads give by default: the highest release that is not yanked, else the highest
 * pre-release that is not yanked; null when every version is yanked.
 */
export function latestVersion(versions: readonly Pick<ExistingVersion, 'version' | 'yanked'>[]): string | null {
  const live = versions.filter((v) => !v.yanked).map((v) => v.version);
  const releases = live.filter((v) => semver.prerelease(v) === null).sort(semver.rcompare);
  return releases[0] ?? live.sort(semver.rcompare)[0] ?? null;
}

/** Whether `text` is a valid version to look up (path parameter); loose forms are not accepted there. */
export function isVersion(text: string): boolean {
  return semver.valid(text) === text;
}
