// install, outdated, update: skills written into <root>/<name>/ (.claude/skills by default) exactly and
// atomically (install/folder.ts), every file verified before anything is written (install/resolve.ts), and
// pinned in <root>/skills-lock.json (install/lockfile.ts) so that `install` with no argument reproduces the
// set and `outdated` / `update` move it to the newest versions that are not yanked.
import { lstat, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { isVersion } from '../../domain/versions.js';
import { commandContext, CommandFailed, type CommandContext, type GlobalOptions, UsageError } from '../context.js';
import { columns, plural, shortDigest } from '../format.js';
import { installedDigest, replaceFolder } from '../install/folder.js';
import { LOCK_FILE, readLock, writeLock, type LockEntry, type LockFile } from '../install/lockfile.js';
import {
  downloadVersion,
  fetchSkill,
  type Download,
  type InstalledFile,
  type ServedSkill,
} from '../install/resolve.js';
import { withContext } from './actions.js';

const DEFAULT_ROOT = join('.claude', 'skills');

interface InstallOptions {
  root: string;
  dir?: string;
  force?: boolean;
  allowYanked?: boolean;
}

/** `sk_abc@1.2.0` → id and version; the id as the API takes it (1-64 characters). */
export function parseSpec(spec: string): { id: string; version?: string } {
  const at = spec.lastIndexOf('@');
  const [id, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
  if (id.length < 1 || id.length > 64)
    throw new UsageError(`the skill id must have 1 to 64 characters, not ${JSON.stringify(id)}`);
  if (version !== undefined && !isVersion(version))
    throw new UsageError(`${JSON.stringify(version)} after @ must be a semantic version, e.g. ${id}@1.2.0`);
  return version === undefined ? { id } : { id, version };
}

function refuseYanked(skill: ServedSkill, allowYanked: boolean | undefined, hint: string): void {
  if (skill.yanked && !allowYanked) {
    throw new CommandFailed(
      `${skill.name} ${skill.version} is yanked (withdrawn by its publisher); ${hint}, or pass --allow-yanked to install it anyway`,
      'YANKED',
    );
  }
}

const entryFor = (ctx: CommandContext, download: Download, digest: string): LockEntry => ({
  id: download.skill.id,
  publisher: download.skill.agent_id,
  name: download.skill.name,
  version: download.skill.version,
  digest,
  registry: ctx.url,
});

/** The digest to pin: the registry's version digest, checked against what was downloaded. */
function pinnedDigest(download: Download, written: string | null): string {
  const digest = download.skill.digest ?? written;
  if (!digest)
    throw new CommandFailed(`the version digest of ${download.skill.name} could not be computed`, 'DIGEST_UNSUPPORTED');
  return digest;
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );
const nonEmpty = (path: string) =>
  readdir(path).then(
    (names) => names.length > 0,
    () => false,
  );

interface Installed {
  id: string;
  name: string;
  version: string;
  digest: string;
  dir: string;
  unchanged: boolean;
  yanked: boolean;
  files: InstalledFile[];
}

function describeInstalled(done: Installed): string {
  const verified = done.files.filter((f) => f.verified).length;
  const checked =
    verified === done.files.length
      ? 'sha256 verified'
      : verified === 0
        ? 'NOT verified: the registry gave no digests'
        : `${verified} of ${done.files.length} verified by digest`;
  if (done.unchanged) return `${done.name} ${done.version} is already installed in ${done.dir} (unchanged)`;
  return `installed ${done.name} ${done.version} (${done.id}) into ${done.dir}: ${plural(done.files.length, 'file')}, ${shortDigest(done.digest)}, ${checked}${done.yanked ? ' [yanked]' : ''}`;
}

async function installOne(
  ctx: CommandContext,
  spec: string,
  options: InstallOptions,
  lock: LockFile | null,
): Promise<Installed> {
  const { id, version } = parseSpec(spec);
  const skill = await fetchSkill(ctx, id, version);
  refuseYanked(
    skill,
    options.allowYanked,
    version ? 'choose another version (kreg versions)' : 'every version is yanked',
  );
  const folder = options.dir ? resolve(options.dir) : resolve(options.root, skill.name);
  const pinned = lock?.skills[skill.name];
  if (!options.force && (await exists(folder))) {
    if (pinned && pinned.id !== skill.id) {
      throw new CommandFailed(
        `${folder} holds ${pinned.name} of ${pinned.publisher} (${pinned.id}), another skill of that name; pass --force to replace it`,
        'EXISTS',
      );
    }
    if (!pinned && (await nonEmpty(folder)))
      throw new CommandFailed(
        `${folder} already holds files this command did not install; pass --force to replace them`,
        'EXISTS',
      );
    if (pinned && pinned.version === skill.version && (await installedDigest(folder)) === pinned.digest) {
      return {
        id: skill.id,
        name: skill.name,
        version: skill.version,
        digest: pinned.digest,
        dir: folder,
        unchanged: true,
        yanked: skill.yanked,
        files: [],
      };
    }
  }
  const download = await downloadVersion(ctx, skill);
  await replaceFolder(folder, download.files);
  const digest = pinnedDigest(download, await installedDigest(folder));
  if (lock) {
    lock.skills[skill.name] = entryFor(ctx, download, digest);
    await writeLock(options.root, lock);
  }
  return {
    id: skill.id,
    name: skill.name,
    version: skill.version,
    digest,
    dir: folder,
    unchanged: false,
    yanked: skill.yanked,
    files: download.report,
  };
}

/** Every pinned skill exactly as skills-lock.json has it: downloaded and verified first, then written. */
async function installFromLock(ctx: CommandContext, options: InstallOptions): Promise<Installed[]> {
  const lock = await readLock(options.root);
  const entries = Object.entries(lock.skills);
  if (entries.length === 0)
    throw new UsageError(
      `nothing to install: ${join(options.root, LOCK_FILE)} pins no skills; name one (kreg install <id>)`,
    );
  const pending: { folder: string; entry: LockEntry; download: Download }[] = [];
  const done: Installed[] = [];
  for (const [name, entry] of entries) {
    const folder = resolve(options.root, name);
    if (entry.registry !== ctx.url) {
      throw new CommandFailed(
        `${LOCK_FILE} pins ${name} to the registry at ${entry.registry}, not ${ctx.url}: pass --url ${entry.registry}`,
        'REGISTRY_MISMATCH',
      );
    }
    if ((await installedDigest(folder)) === entry.digest) {
      done.push({
        id: entry.id,
        name,
        version: entry.version,
        digest: entry.digest,
        dir: folder,
        unchanged: true,
        yanked: false,
        files: [],
      });
      continue;
    }
    const skill = await fetchSkill(ctx, entry.id, entry.version);
    if (skill.digest !== undefined && skill.digest !== entry.digest) {
      throw new CommandFailed(
        `the registry gives ${name} ${entry.version} the digest ${skill.digest}, but ${LOCK_FILE} pins ${entry.digest}; nothing was written`,
        'LOCK_MISMATCH',
      );
    }
    refuseYanked(skill, options.allowYanked, `move to a version that is not yanked with kreg update ${name}`);
    pending.push({ folder, entry, download: await downloadVersion(ctx, skill) });
  }
  for (const { folder, entry, download } of pending) {
    await replaceFolder(folder, download.files);
    const digest = await installedDigest(folder);
    if (digest !== entry.digest)
      throw new CommandFailed(
        `${folder} does not have the digest ${LOCK_FILE} pins (${entry.digest}), but ${digest}`,
        'LOCK_MISMATCH',
      );
    done.push({
      id: entry.id,
      name: entry.name,
      version: entry.version,
      digest: entry.digest,
      dir: folder,
      unchanged: false,
      yanked: download.skill.yanked,
      files: download.report,
    });
  }
  return done;
}

interface Status {
  dir: string;
  id: string;
  name: string;
  current: string;
  latest: string | null;
  current_yanked: boolean;
  outdated: boolean;
}

/** Where each pinned skill stands: the newest version that is not yanked, as the registry says. */
async function statuses(ctx: CommandContext, lock: LockFile, only: string[]): Promise<Status[]> {
  const unknown = only.filter((name) => !lock.skills[name]);
  if (unknown.length > 0) throw new UsageError(`${LOCK_FILE} pins no skill named ${unknown.join(', ')}`);
  const result: Status[] = [];
  for (const [name, entry] of Object.entries(lock.skills)) {
    if (only.length > 0 && !only.includes(name)) continue;
    const at = await fetchSkill(ctx, entry.id, entry.version);
    const latest = at.latest_version;
    result.push({
      dir: name,
      id: entry.id,
      name: entry.name,
      current: entry.version,
      latest,
      current_yanked: at.yanked,
      outdated: latest !== null && latest !== entry.version,
    });
  }
  return result;
}

const rootOption = (command: Command) =>
  command.option('--root <folder>', `the folder that holds the installed skills and ${LOCK_FILE}`, DEFAULT_ROOT);

export function installCommands(program: Command): void {
  rootOption(
    program
      .command('install')
      .description(
        `install skills into <root>/<name>/ (default ${DEFAULT_ROOT}), verified and pinned in ${LOCK_FILE}; with no id, install exactly what ${LOCK_FILE} pins`,
      )
      .argument('[skills...]', 'skill ids, each optionally @version (sk_…@1.2.0)'),
  )
    .option('--dir <folder>', 'install one skill into exactly this folder, pinned in no lock file')
    .option(
      '--force',
      'replace a folder that holds files this command did not install, and reinstall what is unchanged',
    )
    .option('--allow-yanked', 'install a version its publisher yanked')
    .addHelpText(
      'after',
      `
Examples:
  $ kreg install sk_3hX9…                 latest version → ${DEFAULT_ROOT}/<name>/, pinned in ${LOCK_FILE}
  $ kreg install sk_3hX9…@1.2.0           that version
  $ kreg install                          every skill ${LOCK_FILE} pins, at its version and digest
  $ kreg install sk_3hX9… --dir vendor/x  into vendor/x, pinned nowhere`,
    )
    .action(async (specs: string[], options: InstallOptions, command: Command) => {
      if (options.dir !== undefined && specs.length !== 1) throw new UsageError('--dir takes exactly one skill id');
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const root = resolve(options.root);
      let done: Installed[];
      if (specs.length === 0) done = await installFromLock(ctx, { ...options, root });
      else {
        const lock = options.dir === undefined ? await readLock(root) : null;
        done = [];
        for (const spec of specs) done.push(await installOne(ctx, spec, { ...options, root }, lock));
      }
      ctx.out.result(done.length === 1 && specs.length === 1 ? done[0] : done, () =>
        done.map(describeInstalled).join('\n'),
      );
    });

  rootOption(
    program
      .command('outdated')
      .description(`list the skills ${LOCK_FILE} pins whose newest version that is not yanked is another`),
  )
    .addHelpText('after', '\nExamples:\n  $ kreg outdated\n  $ kreg --json outdated --root ~/.claude/skills')
    .action(
      withContext(async (ctx, options: { root: string }) => {
        const lock = await readLock(resolve(options.root));
        const all = await statuses(ctx, lock, []);
        const outdated = all.filter((s) => s.outdated || s.current_yanked);
        ctx.out.result(all, () =>
          outdated.length === 0
            ? `${plural(all.length, 'skill')} pinned, all at their newest version`
            : columns([
                ['skill', 'current', 'latest', ''],
                ...outdated.map((s) => [
                  s.dir,
                  s.current,
                  s.latest ?? '(none)',
                  s.current_yanked ? 'current version yanked' : '',
                ]),
              ]),
        );
      }),
    );

  rootOption(
    program
      .command('update')
      .description(
        `move pinned skills (all, or those named) to their newest version that is not yanked, and pin it in ${LOCK_FILE}`,
      )
      .argument('[names...]', `skill folders as ${LOCK_FILE} names them`),
  )
    .addHelpText('after', '\nExamples:\n  $ kreg update\n  $ kreg update pdf-tools')
    .action(
      withContext(async (ctx, names: string[], options: { root: string }) => {
        const root = resolve(options.root);
        const lock = await readLock(root);
        const moving = (await statuses(ctx, lock, names)).filter((s) => s.outdated);
        // Everything is downloaded and verified before the first folder changes.
        const downloads = [];
        for (const status of moving)
          downloads.push({
            status,
            download: await downloadVersion(ctx, await fetchSkill(ctx, status.id, status.latest!)),
          });
        const updated: { dir: string; name: string; from: string; to: string }[] = [];
        for (const { status, download } of downloads) {
          const folder = resolve(root, status.dir);
          await replaceFolder(folder, download.files);
          lock.skills[status.dir] = entryFor(ctx, download, pinnedDigest(download, await installedDigest(folder)));
          updated.push({ dir: folder, name: status.dir, from: status.current, to: status.latest! });
        }
        if (updated.length > 0) await writeLock(root, lock);
        ctx.out.result(updated, () =>
          updated.length === 0
            ? 'every pinned skill is at its newest version'
            : updated.map((u) => `updated ${u.name} ${u.from} → ${u.to}`).join('\n'),
        );
      }),
    );
}
