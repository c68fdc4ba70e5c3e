// When the registry's search index is saved and loaded (snapshot.ts says how): loaded once at start-up
// when a usable file is there; saved after a build from the store, every few minutes while changes
// arrive, and at shutdown; one write at a time, never on a request's path.
import { existsSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { KindIndex } from './registry-index.js';
import { loadIndexSnapshot, snapshotFingerprint, writeIndexSnapshot, type SnapshotMark } from './snapshot.js';

type Indexes = Record<'skill' | 'unit', KindIndex>;

const FILE = 'index.snapshot';

/**
 * Removes the snapshot kept in `dir` (a restore replaces the database it was taken of); whether there was
 * one. A snapshot of another database is never loaded anyway: this keeps a stale copy of private text
 * from lying on disk.
 */
export function removeSnapshot(dir: string): boolean {
  const path = join(dir, FILE);
  if (!existsSync(path)) return false;
  rmSync(path, { force: true });
  return true;
}

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export class SnapshotKeeper {
  readonly path: string;
  private readonly fingerprint: string;
  /** The mark of the file on disk (null: none known). */
  private savedAt: string | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    dir: string,
    shape: unknown,
    private readonly log: () => Log | undefined,
  ) {
    this.path = join(dir, FILE);
    this.fingerprint = snapshotFingerprint(shape);
  }

  /**
   * Loads the file into `fresh` and answers its mark (the database and the change it was taken at); null
   * when there is none or it cannot be used (another version or configuration, damaged), and the caller
   * builds from the store.
   */
  async load(fresh: Indexes, progress: (done: number, total: number) => void): Promise<SnapshotMark | null> {
    await this.removeUnfinished();
    if (!existsSync(this.path)) return null;
    const started = Date.now();
    try {
      const mark = await loadIndexSnapshot(this.path, fresh, this.fingerprint, progress);
      this.savedAt = JSON.stringify(mark);
      this.log()?.info(
        { path: this.path, change: mark.position, ms: Date.now() - started },
        'search index loaded from its snapshot',
      );
      return mark;
    } catch (error) {
      this.log()?.warn(
        { path: this.path, err: error },
        'the search index snapshot cannot be used; building the index from the database',
      );
      return null;
    }
  }

  /** Removes what a process stopped while writing left behind (its temporary file). */
  private async removeUnfinished(): Promise<void> {
    const names = await readdir(dirname(this.path)).catch(() => [] as string[]);
    const unfinished = names.filter((name) => name.startsWith(`${basename(this.path)}.`) && name.endsWith('.tmp'));
    await Promise.all(unfinished.map((name) => rm(join(dirname(this.path), name), { force: true })));
  }

  /** Forgets that the file matches the index (it is older than the store: the next save rewrites it). */
  stale(): void {
    this.savedAt = null;
  }

  /**
   * Saves the indexes unless the file already holds this mark; after the save under way, if there is one
   * (it began earlier: a deletion since then must not stay in the file until the next save).
   */
  save(indexes: Indexes, mark: SnapshotMark): Promise<void> {
    if (this.writing) return this.writing.then(() => this.save(indexes, mark));
    const marked = JSON.stringify(mark);
    if (marked === this.savedAt) return Promise.resolve();
    const started = Date.now();
    this.writing = writeIndexSnapshot(this.path, indexes, mark, this.fingerprint)
      .then(
        (items) => {
          this.savedAt = marked;
          this.log()?.info(
            { path: this.path, items, change: mark.position, ms: Date.now() - started },
            'search index snapshot saved',
          );
        },
        (error: unknown) =>
          this.log()?.warn({ path: this.path, err: error }, 'saving the search index snapshot failed'),
      )
      .finally(() => {
        this.writing = null;
      });
    return this.writing;
  }
}
