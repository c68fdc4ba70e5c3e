// A read-write gate over the index: searches read it (a scoring worker reads it from another thread while
// the event loop goes on), the change log's batches write it. A batch waits until the reads under way are
// done, and reads that come meanwhile wait for the batch: a read never sees an index half changed, and a
// stream of reads cannot keep a batch waiting, nor batches the reads.
export class ReadWriteGate {
  private readers = 0;
  /** Settles when the batch being written (or waiting to be) is done. */
  private writing: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  async read<T>(fn: () => Promise<T>): Promise<T> {
    while (this.writing) await this.writing;
    this.readers++;
    try {
      return await fn();
    } finally {
      if (--this.readers === 0 && this.drained) this.drained();
    }
  }

  async write<T>(fn: () => Promise<T>): Promise<T> {
    while (this.writing) await this.writing;
    let done!: () => void;
    this.writing = new Promise<void>((resolve) => (done = resolve));
    try {
      if (this.readers > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = null;
      return await fn();
    } finally {
      this.writing = null;
      done();
    }
  }
}
