// Skill versions: semver, immutable, never reused. A skill is identified by its publisher and name;
// publishing again adds a version, unless the content is identical to one it already has. Pure rules:
// the store reads a skill's versions inside its transaction and applies what these decide.
import semver from 'semver';

/** The version a skill's first publication gets when its SKILL.md names none. */
export const FIRST_VERSION = '1.0.0';

export interface ExistingVersion {
  version: string;
  digest: string;
  yanked: boolean;
}

export type VersionDecision =
  /** The same content is already published: answer with that version, write nothing. */
  | { kind: 'same'; version: string }
  | { kind: 'new'; version: string }
  /** The version the SKILL.md asks for is taken by different content (versions are immutable). */
  | { kind: 'taken'; version: string };

/** A requested version as semver, with a note when it had to be read loosely (`1.0` → `1.0.0`). */
export function readVersion(requested: string | null): { version: string | null; note: string | null } {
  if (requested === null || requested.trim() === '') return { version: null, note: null };
  const given = requested.trim();
  const exact = semver.valid(given);
  if (exact) return { version: exact, note: null };
  const coerced = semver.coerce(given, { includePrerelease: true })?.version ?? null;
  if (coerced && given.length <= 64) {
    return { version: coerced, note: `version ${JSON.stringify(given)} is not semver; published as ${coerced}` };
  }
  return { version: null, note: `version ${JSON.stringify(given.slice(0, 64))} is not a version number; the next patch version was used` };
}

/**
 * What publishing `candidate` does to a skill that has `existing` versions: identical content returns
 * the version that has it; a requested version is used when free; otherwise the next patch after the
 * highest version ever published (yanked ones included, so no number is reused).
 */
export function decideVersion(existing: readonly ExistingVersion[], candidate: { digest: string; requested: string | null }): VersionDecision {
  const same = existing.find((v) => v.digest === candidate.digest);
  if (same) return { kind: 'same', version: same.version };
  if (candidate.requested !== null) {
    const taken = existing.some((v) => semver.eq(v.version, candidate.requested!));
    return { kind: taken ? 'taken' : 'new', version: candidate.requested };
  }
  const highest = existing.map((v) => v.version).sort(semver.rcompare)[0];
  if (highest === undefined) return { kind: 'new', version: FIRST_VERSION };
  // The patch after a pre-release is its release (1.1.0-beta.1 → 1.1.0), after a release the next patch.
  return { kind: 'new', version: semver.inc(highest, 'patch')! };
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

/** Versions newest first (semver precedence). */
export function byVersionDescending(a: string, b: string): number {
  return semver.rcompare(a, b);
}

/** Whether `text` is a valid version to look up (path parameter); loose forms are not accepted there. */
export function isVersion(text: string): boolean {
  return semver.valid(text) === text;
}
