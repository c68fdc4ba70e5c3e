// install: writes a skill into .claude/skills/<name>/ (or --dir), every file checked against the sha256
// digests the registry gives. A skill without files is its SKILL.md, whose digest is the version digest; a
// skill with a bundle is fetched as its version's archive, whose digest is the version digest, and every
// file in it is checked against the file list's own digest.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { unzipSync } from 'fflate';
import type { Skill } from '../../domain/model.js';
import { CommandFailed, commandContext, type CommandContext, type GlobalOptions } from '../context.js';

interface BundleFile {
  path: string;
  size?: number;
  digest: string;
}
/** A skill as the API answers it, with the bundle fields issue 14 adds when the registry has them. */
type ServedSkill = Skill & { digest?: string; files?: BundleFile[] };

interface InstalledFile {
  path: string;
  size: number;
  sha256: string;
  /** Checked against a digest the registry gave (false: the registry gave none). */
  verified: boolean;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The hex digest a `sha256:<hex>` (or bare hex) digest names. */
function expectedHex(digest: string, path: string): string {
  const match = /^(?:sha256:)?([0-9a-fA-F]{64})$/.exec(digest);
  if (!match) throw new CommandFailed(`the registry gave ${path} a digest this command cannot check: ${JSON.stringify(digest)}`, 'DIGEST_UNSUPPORTED');
  return match[1]!.toLowerCase();
}

function verify(bytes: Uint8Array, digest: string | undefined, path: string): InstalledFile {
  const actual = sha256Hex(bytes);
  if (digest !== undefined && expectedHex(digest, path) !== actual) {
    throw new CommandFailed(`${path}: the content's sha256 (${actual}) differs from the registry's digest (${digest}); nothing was written`, 'DIGEST_MISMATCH');
  }
  return { path, size: bytes.byteLength, sha256: actual, verified: digest !== undefined };
}

/** A bundle path that stays inside the skill's folder: relative, `/`-separated, no `.` or `..` segments. */
function safePath(path: string): string {
  const parts = path.split('/');
  if (isAbsolute(path) || path.includes('\\') || path.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new CommandFailed(`the registry listed a file path that is not safe to write: ${JSON.stringify(path)}`, 'UNSAFE_PATH');
  }
  return path;
}

/** Every file of the skill, downloaded and verified, before anything is written. */
async function fetchFiles(ctx: CommandContext, skill: ServedSkill): Promise<{ file: InstalledFile; bytes: Uint8Array }[]> {
  const skillMd = new TextEncoder().encode(skill.skill_md_content);
  if (!Array.isArray(skill.files) || skill.files.length === 0) {
    return [{ file: verify(skillMd, skill.digest, 'SKILL.md'), bytes: skillMd }];
  }
  // Every listed path must stay inside the folder, before anything is fetched.
  const listed = new Map(skill.files.map((entry) => [safePath(entry.path), entry.digest]));
  // The version's archive: its digest is the version digest, and it holds SKILL.md and every listed file.
  const url = `/v1/skills/${encodeURIComponent(skill.id)}/versions/${encodeURIComponent(skill.version)}/archive.zip`;
  const archive = new Uint8Array(await (await ctx.client.stream(url)).arrayBuffer());
  verify(archive, skill.digest, `the archive of version ${skill.version}`);
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(archive);
  } catch {
    throw new CommandFailed('the archive the registry sent could not be unpacked; nothing was written', 'BAD_ARCHIVE');
  }
  const files: { file: InstalledFile; bytes: Uint8Array }[] = [];
  for (const [path, bytes] of Object.entries(entries)) {
    if (path === 'SKILL.md') {
      files.unshift({ file: verify(bytes, undefined, path), bytes });
      continue;
    }
    const digest = listed.get(safePath(path));
    if (digest === undefined) throw new CommandFailed(`the archive holds ${JSON.stringify(path)}, which the file list does not name; nothing was written`, 'UNLISTED_FILE');
    files.push({ file: verify(bytes, digest, path), bytes });
    listed.delete(path);
  }
  const missing = [...(files[0]?.file.path === 'SKILL.md' ? [] : ['SKILL.md']), ...listed.keys()];
  if (missing.length > 0) throw new CommandFailed(`the archive lacks ${missing.slice(0, 3).join(', ')}; nothing was written`, 'INCOMPLETE_ARCHIVE');
  // SKILL.md came inside the verified archive: it is as checked as the archive itself.
  files[0] = { ...files[0]!, file: { ...files[0]!.file, verified: true } };
  return files;
}

export function installCommand(program: Command): void {
  program
    .command('install')
    .description('write a skill into .claude/skills/<name>/ (or --dir), verifying sha256 digests the registry gives')
    .argument('<id>', 'the skill id, as search shows it')
    .option('--dir <folder>', 'the folder to write the skill into (default: .claude/skills/<name> under the current folder)')
    .option('--force', 'replace the files of a skill already installed there')
    .action(async (id: string, options: { dir?: string; force?: boolean }, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const { data: skill } = await ctx.client.get<{ data: ServedSkill }>(`/v1/skills/${encodeURIComponent(id)}`);
      if (!NAME.test(skill.name)) throw new CommandFailed(`the skill's name ${JSON.stringify(skill.name)} is not a safe folder name`, 'UNSAFE_PATH');
      const folder = resolve(options.dir ?? join('.claude', 'skills', skill.name));
      if (existsSync(join(folder, 'SKILL.md')) && !options.force) {
        throw new CommandFailed(`${folder} already holds a skill; pass --force to replace its files`, 'EXISTS');
      }
      const files = await fetchFiles(ctx, skill);
      for (const { file, bytes } of files) {
        const target = resolve(folder, file.path);
        if (relative(folder, target).startsWith('..')) throw new CommandFailed(`unsafe path ${file.path}`, 'UNSAFE_PATH');
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, bytes);
      }
      const installed = files.map(({ file }) => file);
      ctx.out.result({ id: skill.id, name: skill.name, dir: folder, files: installed }, () => {
        const verified = installed.filter((f) => f.verified).length;
        const checked =
          verified === installed.length ? 'sha256 digests verified' : verified === 0 ? 'the registry gave no digests: written as served' : `${verified} of ${installed.length} files verified by digest`;
        return `installed ${skill.name} (${skill.id}) into ${folder}: ${installed.map((f) => f.path).join(', ')} (${checked})`;
      });
    });
}
