// skills-lock.json: the skills installed under one root folder, pinned, so `kreg install` with no argument
// reproduces the set exactly. Its name and place follow `npx skills` (a skills-lock.json in the project,
// one entry per installed skill with a content hash); its shape follows npm's package-lock.json: a
// `lockfileVersion`, entries keyed by where they are installed (the skill's folder under the root), keys
// sorted, two-space JSON with a final newline so that diffs stay small, written atomically.
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static } from 'typebox';
import { checked } from '../checks.js';
import { CommandFailed, UsageError } from '../context.js';

export const LOCK_FILE = 'skills-lock.json';
export const LOCKFILE_VERSION = 1;
/** A skill's folder under the root: its conformant name. */
export const FOLDER_NAME = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

const LockEntry = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    publisher: Type.String({ minLength: 1, maxLength: 256 }),
    name: Type.String({ pattern: FOLDER_NAME, maxLength: 64 }),
    version: Type.String({ minLength: 5, maxLength: 64 }),
    digest: Type.String({ pattern: '^sha256:[0-9a-f]{64}$' }),
    registry: Type.String({ minLength: 1, maxLength: 2048 }),
  },
  { additionalProperties: false },
);
export type LockEntry = Static<typeof LockEntry>;

const LockFile = Type.Object(
  {
    lockfileVersion: Type.Literal(LOCKFILE_VERSION),
    skills: Type.Record(Type.String({ pattern: FOLDER_NAME }), LockEntry, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type LockFile = Static<typeof LockFile>;

export const emptyLock = (): LockFile => ({ lockfileVersion: LOCKFILE_VERSION, skills: {} });

/** The root's lock file; an empty one when there is none. A file that is not a lock file is an error (exit 1). */
export async function readLock(root: string): Promise<LockFile> {
  const file = join(root, LOCK_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyLock();
    throw error;
  }
  try {
    return checked<LockFile>(LockFile, JSON.parse(text), { where: LOCK_FILE, coerce: false });
  } catch (error) {
    const why = error instanceof UsageError ? error.message : `${LOCK_FILE} is not JSON`;
    throw new CommandFailed(`${file} cannot be used: ${why}`, 'BAD_LOCKFILE');
  }
}

/** Writes the lock file through a temporary file and a rename, so a reader never sees half of it. */
export async function writeLock(root: string, lock: LockFile): Promise<string> {
  const file = join(root, LOCK_FILE);
  const sorted: LockFile = {
    lockfileVersion: LOCKFILE_VERSION,
    skills: Object.fromEntries(
      Object.keys(lock.skills)
        .sort()
        .map((folder) => [folder, lock.skills[folder]!]),
    ),
  };
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(sorted, null, 2)}\n`);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  return file;
}
