// Installing is exact and atomic: the version's files are written into a new folder beside the target,
// flushed, and swapped in by renaming, so the target holds exactly the version's files (nothing left from an
// earlier version) and a failure at any step leaves the earlier installation as it was and no temporary
// folder behind. The swap is two renames on one file system (the old folder aside, the new one in); a
// crash between them leaves the old folder beside the target, under a name that says so.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { versionDigest } from '../../domain/bundles.js';

export interface FileToWrite {
  path: string;
  bytes: Uint8Array;
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

/** Removes a folder on SIGINT/SIGTERM while `work` runs, then lets the signal end the process as usual. */
async function cleanedOnSignal<T>(folder: () => string | undefined, work: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    const path = folder();
    if (path) void rm(path, { recursive: true, force: true }).finally(() => process.kill(process.pid, signal));
    else process.kill(process.pid, signal);
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

/**
 * Makes `target` a folder holding exactly `files` (paths already checked by the domain's installablePaths),
 * replacing whatever folder was there. All or nothing: on failure the old folder is untouched.
 */
export async function replaceFolder(target: string, files: readonly FileToWrite[]): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  let staging: string | undefined;
  await cleanedOnSignal(
    () => staging,
    async () => {
      try {
        staging = await mkdtemp(stagingPrefix(target));
        for (const file of files) {
          const path = join(staging, ...file.path.split('/'));
          await mkdir(dirname(path), { recursive: true });
          await writeFlushed(path, file.bytes);
        }
        const previous = await lstat(target).catch(() => null);
        if (!previous) {
          await rename(staging, target);
          staging = undefined;
          return;
        }
        const aside = join(dirname(target), `.${basename(target)}.kreg-old-${randomBytes(4).toString('hex')}`);
        await rename(target, aside);
        try {
          await rename(staging, target);
          staging = undefined;
        } catch (error) {
          await rename(aside, target);
          throw error;
        }
        await rm(aside, { recursive: true, force: true });
      } finally {
        if (staging) await rm(staging, { recursive: true, force: true });
      }
    },
  );
}

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
