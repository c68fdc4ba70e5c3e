// Deleted text leaves the disk when the deletion answers. `secure_delete` (connection.ts) overwrites with
// zeros what a deletion frees, but in WAL mode those zeroed pages reach the database file only at a
// checkpoint, and the WAL keeps the frames that held the text (the insert's) until they are written over.
// So a deletion is followed by a checkpoint that copies the WAL into the file and truncates the WAL to
// nothing. A list in a read worker may hold the WAL: then the checkpoint is not waited for on the event
// loop but tried again a moment later, until it completes.
import type { Database } from 'better-sqlite3';
import { BUSY_TIMEOUT_MS } from './connection.js';

const RETRY_MS = 500;

export class ErasureCheckpoint {
  private next: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly db: Database) {}

  /**
   * Settles once a checkpoint that began after this call has run (deletions committed together share one);
   * when a reader kept it from completing, it goes on in the background.
   */
  afterDeletion(): Promise<void> {
    this.next ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.next = null;
        this.checkpoint();
        resolve();
      }),
    );
    return this.next;
  }

  /** Stops retrying (closing the connection checkpoints and removes the WAL anyway). */
  stop(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private checkpoint(): void {
    if (!this.db.open) return;
    let done = false;
    this.db.pragma('busy_timeout = 0');
    try {
      const [outcome] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      done = outcome?.busy === 0;
    } catch {
      // An I/O error here fails no deletion (it is committed): the next attempt tries again.
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    if (done || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.checkpoint();
    }, RETRY_MS);
    this.retry.unref();
  }
}
