// A skill's bundle: SKILL.md plus files at relative paths (scripts/, references/, assets/ …). Paths are
// normalized and checked, content is decoded and bounded, every file gets a sha256 digest, and the whole
// version is packed as one deterministic ZIP archive whose digest identifies the version. Pure.
import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import mime from 'mime-types';
import { installablePaths } from './bundle-paths.js';
import { scanText } from './skill-md.js';
import type { SkillWarning } from './skill-md.js';

export const MAX_BUNDLE_FILES = 64;
/** Per file, decoded. */
export const MAX_FILE_BYTES = 512 * 1024;
/** All files together, decoded (the request body is at most 1 MiB, base64 included). */
export const MAX_BUNDLE_BYTES = 768 * 1024;
export const MAX_PATH_LENGTH = 255;
const MAX_SEGMENTS = 12;
const MAX_SEGMENT_LENGTH = 128;

export interface BundleFileInput {
  path: string;
  content_base64: string;
}

export interface BundleFile {
  path: string;
  content: Buffer;
  size: number;
  digest: string;
  mediaType: string;
}

export type BundleCheck =
  { ok: true; files: BundleFile[]; warnings: SkillWarning[] } | { ok: false; field: string; message: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// A segment: no control or format characters, no separators of other systems.
const BAD_CHARACTER = /[\p{Cc}\p{Cf}\\:*?"<>|]/u;

export function sha256Digest(bytes: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A path as given → its normal form (`./a//b` → `a/b`), or why it is refused. */
export function normalizeBundlePath(given: string): { path: string } | { error: string } {
  const path = given.normalize('NFC').replace(/^(\.\/)+/, '');
  if (path.length === 0) return { error: 'is empty' };
  if (path.length > MAX_PATH_LENGTH) return { error: `is longer than ${MAX_PATH_LENGTH} characters` };
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    return { error: 'must be relative (no leading / or drive letter)' };
  if (path.includes('\\')) return { error: 'must use / between folders, not \\' };
  const segments = path.split('/').filter((segment, i, all) => segment !== '' || i === all.length - 1);
  if (segments.at(-1) === '') return { error: 'must name a file, not a folder' };
  if (segments.length > MAX_SEGMENTS) return { error: `is nested more than ${MAX_SEGMENTS} folders deep` };
  for (const segment of segments) {
    if (segment === '..') return { error: 'must not contain ..' };
    if (segment === '.') return { error: 'must not contain . segments' };
    if (segment.length > MAX_SEGMENT_LENGTH)
      return { error: `has a name longer than ${MAX_SEGMENT_LENGTH} characters` };
    if (BAD_CHARACTER.test(segment)) return { error: 'has a control character or one of \\ : * ? " < > |' };
    if (segment.trim() !== segment) return { error: 'has a name that starts or ends with white space' };
  }
  return { path: segments.join('/') };
}

/**
 * What a client is served a file as. Text keeps its type (charset utf-8); anything a browser would run
 * or render (HTML, SVG, JavaScript) is served as plain text, with nosniff and a sandbox CSP besides.
 */
export function mediaTypeOf(path: string, content: Uint8Array): string {
  const type = mime.lookup(path) || 'application/octet-stream';
  const text = isText(content);
  if (/^(text\/html|image\/svg\+xml|application\/(x-)?javascript|text\/javascript|application\/xhtml\+xml)/.test(type))
    return 'text/plain; charset=utf-8';
  if (type.startsWith('text/') || (type === 'application/octet-stream' && text)) {
    return `${type === 'application/octet-stream' ? 'text/plain' : type}; charset=utf-8`;
  }
  if (/^application\/(json|yaml|x-yaml|toml|xml)$/.test(type)) return `${type}; charset=utf-8`;
  return type;
}

/** UTF-8 without NUL bytes: scanned for findings, served as text. */
function isText(content: Uint8Array): boolean {
  return !content.includes(0) && Buffer.from(content).toString('utf8').indexOf('\uFFFD') === -1;
}

/**
 * Checks and decodes a bundle: bounded count and sizes, valid base64, normalized paths that can be installed
 * everywhere (installablePaths: no collisions, also not by letter case; no file where a folder is needed;
 * no metadata that runs code), no second SKILL.md. Text files are scanned for the same soft findings as
 * SKILL.md, each warning naming its file. A refusal names the field, the file and the rule.
 */
export function checkBundle(inputs: readonly BundleFileInput[]): BundleCheck {
  if (inputs.length > MAX_BUNDLE_FILES)
    return { ok: false, field: 'files', message: `files must have at most ${MAX_BUNDLE_FILES} entries` };
  const paths: string[] = [];
  for (const [i, input] of inputs.entries()) {
    const normal = normalizeBundlePath(input.path);
    if ('error' in normal)
      return { ok: false, field: `files.${i}.path`, message: `files.${i}.path ${normal.error} (rule path_syntax)` };
    paths.push(normal.path);
  }
  const refusal = installablePaths(paths);
  if (refusal) {
    return {
      ok: false,
      field: `files.${refusal.index}.path`,
      message: `files.${refusal.index}.path ${refusal.message} (rule ${refusal.rule})`,
    };
  }
  const files: BundleFile[] = [];
  const warnings: SkillWarning[] = [];
  let total = 0;
  for (const [i, input] of inputs.entries()) {
    const path = paths[i]!;
    if (!BASE64.test(input.content_base64)) {
      return {
        ok: false,
        field: `files.${i}.content_base64`,
        message: `files.${i}.content_base64 must be standard base64 (A-Z a-z 0-9 + /, = padding)`,
      };
    }
    const content = Buffer.from(input.content_base64, 'base64');
    if (content.length > MAX_FILE_BYTES) {
      return {
        ok: false,
        field: `files.${i}.content_base64`,
        message: `files.${i} (${path}) is ${content.length} bytes; a file may have at most ${MAX_FILE_BYTES}`,
      };
    }
    total += content.length;
    if (total > MAX_BUNDLE_BYTES)
      return { ok: false, field: 'files', message: `the files together may have at most ${MAX_BUNDLE_BYTES} bytes` };
    if (isText(content)) warnings.push(...scanText(content.toString('utf8'), path));
    files.push({
      path,
      content,
      size: content.length,
      digest: sha256Digest(content),
      mediaType: mediaTypeOf(path, content),
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, files, warnings };
}

// DOS time fields are read in local time by the ZIP writer: a date built from local fields gives the
// same bytes in every time zone.
const ZIP_TIME = new Date(1980, 0, 1, 0, 0, 0);

/**
 * The version's archive: SKILL.md and every file at the archive root, sorted, stored uncompressed with
 * fixed times, so the same content always makes the same bytes (and digest). `zip` is deterministic in
 * its input; a test pins the digest of a fixture, so a library upgrade that changed it is noticed.
 */
export function bundleArchive(skillMd: string, files: readonly { path: string; content: Uint8Array }[]): Uint8Array {
  const entries: Zippable = {};
  const all = [{ path: 'SKILL.md', content: new Uint8Array(Buffer.from(skillMd, 'utf8')) }, ...files].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  for (const file of all) entries[file.path] = [file.content, { level: 0, mtime: ZIP_TIME }];
  return zipSync(entries, { level: 0, mtime: ZIP_TIME });
}

/**
 * A version's digest, the one the discovery index gives and clients verify: the SKILL.md's own for a
 * skill without files (served as SKILL.md), the archive's for a bundle (served as an archive).
 */
export function versionDigest(skillMd: string, files: readonly { path: string; content: Uint8Array }[]): string {
  return files.length === 0 ? sha256Digest(Buffer.from(skillMd, 'utf8')) : sha256Digest(bundleArchive(skillMd, files));
}
