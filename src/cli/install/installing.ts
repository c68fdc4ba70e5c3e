// What install, outdated and update do with a skills folder: install one skill (refusing to overwrite what
// another skill or a person put there), reproduce every skill skills-lock.json pins (all downloaded, written
// beside their folders and verified against the lock before any folder is replaced), and where each pinned
// skill stands against the registry's newest version.
import { lstat, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { affects, type OsvRecord } from '../../domain/advisories.js';
import { CommandFailed, type CommandContext, UsageError } from '../context.js';
import { expectedHex } from './archive.js';
import { installedDigest, replaceFolder, replaceFolders } from './folder.js';
import { LOCK_FILE, readLock, writeLock, type LockEntry, type LockFile } from './lockfile.js';
import { downloadVersion, fetchSkill, type Download, type InstalledFile, type ServedSkill } from './resolve.js';

export interface InstallOptions {
  root: string;
  dir?: string;
  force?: boolean;
  allowYanked?: boolean;
}

function refuseYanked(skill: ServedSkill, allowYanked: boolean | undefined, hint: string): void {
  if (skill.yanked && !allowYanked) {
    throw new CommandFailed(
      `${skill.name} ${skill.version} is yanked (withdrawn by its publisher); ${hint}, or pass --allow-yanked to install it anyway`,
      'YANKED',
    );
  }
}

const entryFor = (ctx: CommandContext, download: Download): LockEntry => ({
  id: download.skill.id,
  publisher: download.skill.agent_id,
  name: download.skill.name,
  version: download.skill.version,
  digest: download.digest,
  registry: ctx.url,
});

/**
 * A version skills-lock.json pins is installed only as pinned: the registry must give that very digest, or
 * nothing is downloaded (the download is then checked against it, and the folder written against the pin).
 */
function refuseUnpinned(skill: ServedSkill, pinned: LockEntry, folder: string): void {
  const what = `${pinned.name} ${pinned.version}`;
  if (skill.digest === undefined) {
    throw new CommandFailed(
      `the registry gives no digest for ${what}, so it cannot be checked against the one ${LOCK_FILE} pins (${pinned.digest}); nothing was written to ${folder}`,
      'DIGEST_MISSING',
    );
  }
  if (`sha256:${expectedHex(skill.digest, `version ${pinned.version}`)}` !== pinned.digest) {
    throw new CommandFailed(
      `the registry gives ${what} the digest ${skill.digest}, but ${LOCK_FILE} pins ${pinned.digest}; nothing was written to ${folder}`,
      'LOCK_MISMATCH',
    );
  }
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

export interface Installed {
  id: string;
  name: string;
  version: string;
  digest: string;
  dir: string;
  unchanged: boolean;
  yanked: boolean;
  files: InstalledFile[];
  /** Advisories that affect the version installed (the install goes ahead; `kreg audit` weighs them). */
  advisories: AdvisoryNote[];
}

interface AdvisoryNote {
  id: string;
  severity: string;
  summary: string;
}

/**
 * The advisories that affect this version, each said on stderr. A registry that cannot answer (an older
 * one without advisories) gives none: the install is not held back by the lookup.
 */
async function advisoriesAffecting(ctx: CommandContext, skill: ServedSkill): Promise<AdvisoryNote[]> {
  let records: OsvRecord[];
  try {
    records = (await ctx.client.get<{ data: OsvRecord[] }>('/v1/advisories', { skill_id: skill.id, limit: 100 })).data;
  } catch {
    return [];
  }
  const notes = records.flatMap((record) =>
    record.affected
      .filter((a) => a.database_specific.skill_id === skill.id && affects(a.database_specific.range, skill.version))
      .map((a) => ({ id: record.id, severity: a.database_specific.severity, summary: record.summary })),
  );
  for (const note of notes)
    ctx.out.note(
      `warning: ${skill.name} ${skill.version} is affected by ${note.id} (${note.severity}): ${note.summary}`,
    );
  return notes;
}

export async function installOne(
  ctx: CommandContext,
  { id, version }: { id: string; version?: string },
  options: InstallOptions,
  lock: LockFile | null,
): Promise<Installed> {
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
        advisories: await advisoriesAffecting(ctx, skill),
      };
    }
  }
  // Reinstalling the version the lock pins (a folder changed since, or --force) must give the pinned content.
  const locked = pinned && pinned.id === skill.id && pinned.version === skill.version ? pinned : undefined;
  if (locked) refuseUnpinned(skill, locked, folder);
  const download = await downloadVersion(ctx, skill);
  await replaceFolder(folder, download.files, locked?.digest ?? download.digest);
  if (lock) {
    lock.skills[skill.name] = entryFor(ctx, download);
    await writeLock(options.root, lock);
  }
  return {
    id: skill.id,
    name: skill.name,
    version: skill.version,
    digest: download.digest,
    dir: folder,
    unchanged: false,
    yanked: skill.yanked,
    files: download.report,
    advisories: await advisoriesAffecting(ctx, skill),
  };
}

/** Every pinned skill exactly as skills-lock.json has it: downloaded and verified first, then written. */
export async function installFromLock(ctx: CommandContext, options: InstallOptions): Promise<Installed[]> {
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
        advisories: [],
      });
      continue;
    }
    const skill = await fetchSkill(ctx, entry.id, entry.version);
    refuseUnpinned(skill, entry, folder);
    refuseYanked(skill, options.allowYanked, `move to a version that is not yanked with kreg update ${name}`);
    pending.push({ folder, entry, download: await downloadVersion(ctx, skill) });
  }
  // Each folder written and checked against its pin before the first one is replaced.
  await replaceFolders(
    pending.map(({ folder, entry, download }) => ({ target: folder, files: download.files, digest: entry.digest })),
  );
  for (const { folder, entry, download } of pending) {
    done.push({
      id: entry.id,
      name: entry.name,
      version: entry.version,
      digest: entry.digest,
      dir: folder,
      unchanged: false,
      yanked: download.skill.yanked,
      files: download.report,
      advisories: await advisoriesAffecting(ctx, download.skill),
    });
  }
  return done;
}

export interface Status {
  dir: string;
  id: string;
  name: string;
  current: string;
  latest: string | null;
  current_yanked: boolean;
  outdated: boolean;
}

/** Where each pinned skill stands: the newest version that is not yanked, as the registry says. */
export async function statuses(ctx: CommandContext, lock: LockFile, only: string[]): Promise<Status[]> {
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

/**
 * Moves pinned skills (all, or those named) to their newest version that is not yanked and pins it; every
 * download is verified before the first folder changes.
 */
export async function updatePinned(
  ctx: CommandContext,
  root: string,
  names: string[],
): Promise<{ dir: string; name: string; from: string; to: string }[]> {
  const lock = await readLock(root);
  const moving = (await statuses(ctx, lock, names)).filter((s) => s.outdated);
  const downloads = [];
  for (const status of moving)
    downloads.push({ status, download: await downloadVersion(ctx, await fetchSkill(ctx, status.id, status.latest!)) });
  await replaceFolders(
    downloads.map(({ status, download }) => ({
      target: resolve(root, status.dir),
      files: download.files,
      digest: download.digest,
    })),
  );
  const updated: { dir: string; name: string; from: string; to: string }[] = [];
  for (const { status, download } of downloads) {
    lock.skills[status.dir] = entryFor(ctx, download);
    updated.push({ dir: resolve(root, status.dir), name: status.dir, from: status.current, to: status.latest! });
  }
  if (updated.length > 0) await writeLock(root, lock);
  return updated;
}
