// When the registry's search index is saved and loaded (snapshot.ts says how): loaded once at start-up
// when a usable file is there; saved after a build from the store, every few minutes while changes
// arrive, and at shutdown; one write at a time, never on a request's path.
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { KindIndex } from './registry-index.js';
import { loadIndexSnapshot, snapshotFingerprint, writeIndexSnapshot } from './snapshot.js';

type Indexes = Record<'skill' | 'unit', KindIndex>;

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export class SnapshotKeeper {
  readonly path: string;
  private readonly fingerprint: string;
  /** The change the file on disk was taken at (-1: none known). */
  private savedAt = -1;
  private writing: Promise<void> | null = null;

  constructor(
    dir: string,
    shape: unknown,
    private readonly log: () => Log | undefined,
  ) {
    this.path = join(dir, 'index.snapshot');
    this.fingerprint = snapshotFingerprint(shape);
  }

  /**
   * Loads the file into `fresh` and answers the change it was taken at; null when there is none or it
   * cannot be used (another version or configuration, damaged), and the caller builds from the store.
   */
  async load(fresh: Indexes, progress: (done: number, total: number) => void): Promise<number | null> {
    await this.removeUnfinished();
    if (!existsSync(this.path)) return null;
    const started = Date.now();
    try {
      const change = await loadIndexSnapshot(this.path, fresh, this.fingerprint, progress);
      this.savedAt = change;
      this.log()?.info({ path: this.path, change, ms: Date.now() - started }, 'search index loaded from its snapshot');
      return change;
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
    this.savedAt = -1;
  }

  /** Saves the indexes unless the file already holds `lastChange` or a save is under way. */
  save(indexes: Indexes, lastChange: number): Promise<void> {
    if (this.writing) return this.writing;
    if (lastChange === this.savedAt) return Promise.resolve();
    const started = Date.now();
    this.writing = writeIndexSnapshot(this.path, indexes, lastChange, this.fingerprint)
      .then(
        (items) => {
          this.savedAt = lastChange;
          this.log()?.info(
            { path: this.path, items, change: lastChange, ms: Date.now() - started },
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
