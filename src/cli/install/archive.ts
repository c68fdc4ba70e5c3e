// A version's archive unpacked with limits, so a registry (or anyone on a plain-http path) cannot make an
// install hold or write more than the version says it has: the archive may hold SKILL.md and the listed
// files only, each at most the size the file list gives it (and the registry's own caps), declared sizes are
// checked in the central directory before anything is inflated, a file may not inflate more than
// MAX_RATIO times its compressed size, and what comes out must match its declared size and digest.
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_FILES, MAX_FILE_BYTES } from '../../domain/bundles.js';
import { CommandFailed } from '../context.js';

/** SKILL.md is at most 100,000 characters: at most 4 bytes each in UTF-8. */
export const MAX_SKILL_MD_BYTES = 400_000;
/** Inflated bytes per compressed byte, for files over 1 KiB (the registry stores files uncompressed: 1). */
export const MAX_RATIO = 100;
/** ZIP's own bytes per entry beyond its name and content: local header, central directory entry, extras. */
const ENTRY_OVERHEAD = 30 + 46 + 64;

export interface ListedFile {
  path: string;
  size: number;
  /** sha256:<hex>, as the registry lists it. */
  digest: string;
}

/** The most bytes an archive of these files can take, with room for ZIP's headers: the download's cap. */
export function archiveCap(skillMdBytes: number, files: readonly ListedFile[]): number {
  const names = files.reduce((sum, f) => sum + 2 * Buffer.byteLength(f.path) + ENTRY_OVERHEAD, 2 * 8 + ENTRY_OVERHEAD);
  const content = files.reduce((sum, f) => sum + f.size, skillMdBytes);
  return content + names + 22 + 65_535;
}

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The hex digest a `sha256:<hex>` (or bare hex) digest names. */
export function expectedHex(digest: string, what: string): string {
  const match = /^(?:sha256:)?([0-9a-fA-F]{64})$/.exec(digest);
  if (!match)
    throw new CommandFailed(
      `the registry gave ${what} a digest this command cannot check: ${JSON.stringify(digest)}`,
      'DIGEST_UNSUPPORTED',
    );
  return match[1]!.toLowerCase();
}

/** Throws unless `bytes` has the sha256 `digest` names. */
export function verifyDigest(bytes: Uint8Array, digest: string, what: string): void {
  const actual = sha256Hex(bytes);
  if (expectedHex(digest, what) !== actual) {
    throw new CommandFailed(
      `${what}: the content's sha256 (${actual}) differs from the registry's digest (${digest}); nothing was written`,
      'DIGEST_MISMATCH',
    );
  }
}

const refuse = (message: string, code: string) =>
  new CommandFailed(`the archive ${message}; nothing was written`, code);

/**
 * The files of an archive (SKILL.md first), each checked against the file list: exactly SKILL.md of
 * `skillMdBytes` bytes and the listed files, at their listed sizes and digests. Nothing is inflated before
 * the central directory has passed every check.
 */
export function unpackArchive(
  archive: Uint8Array,
  skillMdBytes: number,
  listed: readonly ListedFile[],
): Map<string, Uint8Array> {
  const expected = new Map<string, number>([
    ['SKILL.md', skillMdBytes],
    ...listed.map((f) => [f.path, f.size] as const),
  ]);
  if (listed.length > MAX_BUNDLE_FILES)
    throw refuse(`lists ${listed.length} files; a bundle has at most ${MAX_BUNDLE_FILES}`, 'TOO_MANY_FILES');
  const seen = new Set<string>();
  let total = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive, {
      filter: (entry) => {
        const size = expected.get(entry.name);
        if (size === undefined)
          throw refuse(`holds ${JSON.stringify(entry.name)}, which the file list does not name`, 'UNLISTED_FILE');
        if (seen.has(entry.name)) throw refuse(`holds ${JSON.stringify(entry.name)} twice`, 'UNLISTED_FILE');
        seen.add(entry.name);
        const cap = entry.name === 'SKILL.md' ? MAX_SKILL_MD_BYTES : MAX_FILE_BYTES;
        if (entry.originalSize !== size || entry.originalSize > cap) {
          throw refuse(
            `says ${entry.name} has ${entry.originalSize} bytes, but the file list says ${size} (at most ${cap})`,
            'SIZE_MISMATCH',
          );
        }
        total += entry.originalSize;
        if (total > MAX_BUNDLE_BYTES + skillMdBytes)
          throw refuse(`holds more than the ${MAX_BUNDLE_BYTES} bytes a bundle may have`, 'TOO_LARGE');
        if (entry.originalSize > 1024 && entry.originalSize > MAX_RATIO * entry.size) {
          throw refuse(
            `compresses ${entry.name} more than ${MAX_RATIO} to 1 (${entry.size} bytes to ${entry.originalSize}), like a zip bomb`,
            'ZIP_BOMB',
          );
        }
        if (entry.compression !== 0 && entry.compression !== 8)
          throw refuse(`stores ${entry.name} with compression method ${entry.compression}`, 'BAD_ARCHIVE');
        return true;
      },
    });
  } catch (error) {
    if (error instanceof CommandFailed) throw error;
    throw refuse('the registry sent could not be unpacked', 'BAD_ARCHIVE');
  }
  const missing = [...expected.keys()].filter((path) => !seen.has(path));
  if (missing.length > 0)
    throw refuse(`lacks ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`, 'INCOMPLETE_ARCHIVE');
  const files = new Map<string, Uint8Array>();
  for (const path of ['SKILL.md', ...listed.map((f) => f.path)]) {
    const bytes = entries[path]!;
    // Inflating stops at the declared size: a shorter or longer result shows in its length or its digest.
    if (bytes.byteLength !== expected.get(path))
      throw refuse(`gives ${path} ${bytes.byteLength} bytes, not ${expected.get(path)}`, 'SIZE_MISMATCH');
    files.set(path, bytes);
  }
  for (const file of listed) verifyDigest(files.get(file.path)!, file.digest, file.path);
  return files;
}
