// A skill's bundle: SKILL.md plus files at relative paths (scripts/, references/, assets/ …). Paths are
// normalized and checked, content is decoded and bounded, every file gets a sha256 digest, and the whole
// version is packed as one deterministic ZIP archive whose digest identifies the version. Pure.
import { createHash } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import mime from 'mime-types';
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

// ---- paths that can be installed everywhere ---------------------------------------------------------

/** A file or folder name longer than this many bytes (UTF-8) cannot be created on Linux or macOS. */
export const MAX_SEGMENT_BYTES = 255;

/** Device names Windows reserves in every folder, with any extension (`CON`, `con.txt`, `COM1.md`). */
const WINDOWS_RESERVED =
  /^(?:con|prn|aux|nul|com[0-9\u00B9\u00B2\u00B3]|lpt[0-9\u00B9\u00B2\u00B3]|conin\$|conout\$|clock\$)(?:\..*)?$/;

/**
 * Names a tool runs code from when it works in the folder that holds them, so installing them would let a
 * publisher run commands on the installer's machine (`git status` in a folder with a `.git` runs its
 * `core.fsmonitor`). Compared case-insensitively, as macOS and Windows find them. What is left out, and why,
 * is in docs/security.md (`.husky`, `.github/workflows`, `.devcontainer`, `.gitattributes` are inert there).
 */
const VCS_METADATA = new Set([
  '.git',
  'git~1',
  '.hg',
  '.svn',
  '.bzr',
  '_darcs',
  'cvs',
  '.jj',
  '.sl',
  '.pijul',
  '.fslckout',
  '_fossil_',
]);
const TOOL_CONFIG: Readonly<Record<string, string>> = {
  '.envrc': 'direnv runs it as shell code when a shell enters the folder',
  '.vscode':
    'VS Code runs its tasks when the folder is opened (runOn: folderOpen) and starts the programs its settings name',
  '.idea': 'JetBrains IDEs run its startup tasks and run configurations',
};
/** Claude Code settings run shell commands (hooks, status line, key helper) for a session started in the folder. */
const CLAUDE_SETTINGS = new Set(['settings.json', 'settings.local.json']);

/** Case folding for collisions: names that macOS (APFS, HFS+) or Windows (NTFS) could take for one another. */
export const foldPath = (path: string) => path.normalize('NFC').toUpperCase().toLowerCase();

export interface PathRefusal {
  /** Which of the paths given. */
  index: number;
  /** The rule broken: reserved_name, trailing_dot, name_too_long, vcs_metadata, tool_config, case_collision, file_folder_clash. */
  rule: string;
  /** What is wrong, naming the path (without saying where it was listed). */
  message: string;
}

/** What keeps one normalized path from being installed on some system, or null. */
function pathProblem(path: string): { rule: string; message: string } | null {
  const segments = path.split('/');
  for (const [i, segment] of segments.entries()) {
    const folded = foldPath(segment);
    if (VCS_METADATA.has(folded)) {
      return {
        rule: 'vcs_metadata',
        message: `is version-control metadata (${segment}): a VCS run in the installed folder would run the publisher's hooks and configured commands`,
      };
    }
    const tool = TOOL_CONFIG[folded];
    if (tool) return { rule: 'tool_config', message: `is tool configuration that runs code (${segment}: ${tool})` };
    if (folded === '.claude' && i === segments.length - 2 && CLAUDE_SETTINGS.has(foldPath(segments[i + 1]!))) {
      return {
        rule: 'tool_config',
        message: `is tool configuration that runs code (Claude Code settings run their hooks' shell commands)`,
      };
    }
    if (WINDOWS_RESERVED.test(folded))
      return {
        rule: 'reserved_name',
        message: `uses ${JSON.stringify(segment)}, a device name Windows reserves in every folder`,
      };
    if (/[. ]$/.test(segment))
      return {
        rule: 'trailing_dot',
        message: `has a name ending in a dot or space (${JSON.stringify(segment)}), which Windows drops`,
      };
    if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
      return {
        rule: 'name_too_long',
        message: `has a name of more than ${MAX_SEGMENT_BYTES} bytes (UTF-8), more than Linux and macOS allow`,
      };
    }
  }
  return null;
}

/**
 * The one rule, at publication and at install, for the paths of a bundle (normalized, SKILL.md aside): each
 * can be created on Linux, macOS and Windows (no reserved device names, no names ending in a dot or space,
 * names of at most 255 bytes), none is version-control metadata or tool configuration that runs code, no two
 * name the same file where letter case does not count, and no path is a file where another needs a folder
 * (`a` beside `a/b`, `SKILL.md/x`). Every path is checked against SKILL.md, which sits at the top.
 */
export function installablePaths(paths: readonly string[]): PathRefusal | null {
  const files = new Map<string, string>([['skill.md', 'SKILL.md']]);
  const folders = new Map<string, string>();
  for (const [index, path] of paths.entries()) {
    const problem = pathProblem(path);
    if (problem) return { index, rule: problem.rule, message: `${JSON.stringify(path)} ${problem.message}` };
    const folded = foldPath(path);
    const clash = files.get(folded);
    if (clash !== undefined) {
      const message =
        clash === 'SKILL.md'
          ? `${JSON.stringify(path)} collides with SKILL.md (SKILL.md is given as skill_md_content, not as a file)`
          : `${JSON.stringify(path)} collides with ${JSON.stringify(clash)}`;
      return { index, rule: 'case_collision', message };
    }
    const asFolder = folders.get(folded);
    if (asFolder !== undefined)
      return {
        index,
        rule: 'file_folder_clash',
        message: `${JSON.stringify(path)} is a file, but ${JSON.stringify(asFolder)} needs a folder of that name`,
      };
    const parts = path.split('/');
    for (let end = 1; end < parts.length; end++) {
      const folder = parts.slice(0, end).join('/');
      const asFile = files.get(foldPath(folder));
      if (asFile !== undefined)
        return {
          index,
          rule: 'file_folder_clash',
          message: `${JSON.stringify(path)} needs a folder ${JSON.stringify(folder)}, but ${JSON.stringify(asFile)} is a file`,
        };
      if (!folders.has(foldPath(folder))) folders.set(foldPath(folder), path);
    }
    files.set(folded, path);
  }
  return null;
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
