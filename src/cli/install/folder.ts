// Installing is exact, verified and atomic: the version's files are written into a new folder beside the
// target, flushed, and their version digest read back from that folder and compared with the one expected
// (the lock's pin, or the registry's); only then are they swapped in by renaming. So the target holds exactly
// the version's files (nothing left from an earlier version), and a failure at any step, a digest that
// differs included, leaves the earlier installation as it was and no temporary folder behind. The swap is
// two renames on one file system (the old folder aside, the new one in); a crash between them leaves the old
// folder beside the target, under a name that says so.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { versionDigest } from '../../domain/bundles.js';
import { CommandFailed } from '../context.js';

export interface FileToWrite {
  path: string;
  bytes: Uint8Array;
}

/** A folder to replace: `target` is to hold exactly `files`, whose version digest must be `digest`. */
export interface FolderChange {
  target: string;
  files: readonly FileToWrite[];
  digest: string;
}

/** Temporary folders live beside the target, hidden, and say what they are. */
const stagingPrefix = (target: string) => join(dirname(target), `.${basename(target)}.kreg-new-`);

async function writeFlushed(file: string, bytes: Uint8Array): Promise<void> {
  // 'wx': a fresh folder, so an existing entry (a planted link) is an error, never followed.
  const handle = await open(file, 'wx', 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes folders on SIGINT/SIGTERM while `work` runs, then lets the signal end the process as usual. */
async function cleanedOnSignal<T>(folders: () => string[], work: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    void Promise.all(folders().map((path) => rm(path, { recursive: true, force: true }))).finally(() =>
      process.kill(process.pid, signal),
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await work();
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** Writes `change`'s files into `staging` and checks their version digest there, before anything is replaced. */
async function stage(staging: string, change: FolderChange): Promise<void> {
  for (const file of change.files) {
    const path = join(staging, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFlushed(path, file.bytes);
  }
  const written = await installedDigest(staging);
  if (written !== change.digest) {
    throw new CommandFailed(
      `the files written for ${change.target} have the digest ${written ?? '(none)'}, not ${change.digest}; nothing was changed`,
      'DIGEST_MISMATCH',
    );
  }
}

/** Puts the verified `staging` folder in `target`'s place (the old folder aside, then removed). */
async function swapIn(staging: string, target: string): Promise<void> {
  const previous = await lstat(target).catch(() => null);
  if (!previous) return rename(staging, target);
  const aside = join(dirname(target), `.${basename(target)}.kreg-old-${randomBytes(4).toString('hex')}`);
  await rename(target, aside);
  try {
    await rename(staging, target);
  } catch (error) {
    await rename(aside, target);
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
}

/**
 * Makes each change's target a folder holding exactly its files (paths already checked by the domain's
 * installablePaths), replacing whatever folder was there. Every folder is written and verified before the
 * first is swapped in: a failure until then changes nothing.
 */
export async function replaceFolders(changes: readonly FolderChange[]): Promise<void> {
  const staged: { staging: string; target: string }[] = [];
  await cleanedOnSignal(
    () => staged.map((s) => s.staging),
    async () => {
      try {
        for (const change of changes) {
          await mkdir(dirname(change.target), { recursive: true });
          staged.push({ staging: await mkdtemp(stagingPrefix(change.target)), target: change.target });
          await stage(staged.at(-1)!.staging, change);
        }
        while (staged.length > 0) {
          await swapIn(staged[0]!.staging, staged[0]!.target);
          staged.shift();
        }
      } finally {
        await Promise.all(staged.map((s) => rm(s.staging, { recursive: true, force: true })));
      }
    },
  );
}

/** One folder: replaceFolders with a single change. */
export const replaceFolder = (target: string, files: readonly FileToWrite[], digest: string) =>
  replaceFolders([{ target, files, digest }]);

/** Every regular file under `folder` (relative, `/`-separated), or null if it holds anything else (a link). */
async function filesUnder(folder: string, prefix = ''): Promise<string[] | null> {
  const found: string[] = [];
  for (const entry of await readdir(join(folder, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      const below = await filesUnder(folder, path);
      if (below === null) return null;
      found.push(...below);
    } else if (entry.isFile()) found.push(path);
    else return null;
  }
  return found;
}

/**
 * The version digest of what `folder` holds now (the registry's: SKILL.md's, or the archive's with files),
 * so an installation can be compared with a lock file without asking the registry. Null when the folder is
 * missing, has no SKILL.md, or holds a link or anything but files.
 */
export async function installedDigest(folder: string): Promise<string | null> {
  try {
    const paths = await filesUnder(folder);
    if (paths === null || !paths.includes('SKILL.md')) return null;
    const files = await Promise.all(
      paths
        .filter((p) => p !== 'SKILL.md')
        .map(async (path) => ({ path, content: new Uint8Array(await readFile(join(folder, path))) })),
    );
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return versionDigest((await readFile(join(folder, 'SKILL.md'))).toString('utf8'), files);
  } catch {
    return null;
  }
}
