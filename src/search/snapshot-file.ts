// The snapshot file's framing: an 8-byte magic, then records (a type byte, a 4-byte length, the payload:
// JSON or raw bytes), then a last record holding the SHA-256 of every byte before it. Written to a
// temporary file, flushed, then renamed over the old one, so a reader sees a whole file or the previous
// one; read as a stream, so a large file never sits in memory whole, and refused when its digest differs.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

const MAGIC = Buffer.from('KREGIDX\n');
const JSON_RECORD = 1;
const BYTES_RECORD = 2;
const DIGEST_RECORD = 9;
/** A record is at most this long (a reader refuses longer ones rather than buffering them). */
export const MAX_RECORD = 64 * 1024 * 1024;

export class SnapshotWriter {
  private readonly hash: Hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  private constructor(
    private readonly file: FileHandle,
    private readonly path: string,
    private readonly temporary: string,
  ) {}

  static async create(path: string): Promise<SnapshotWriter> {
    // It holds private items' indexed words: the owner's alone, whatever the umask (or a leftover's mode).
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    const file = await open(temporary, 'w', 0o600);
    await file.chmod(0o600);
    const writer = new SnapshotWriter(file, path, temporary);
    await writer.put(MAGIC);
    return writer;
  }

  json(value: unknown): Promise<void> {
    return this.record(JSON_RECORD, Buffer.from(JSON.stringify(value)));
  }

  bytes(view: ArrayBufferView): Promise<void> {
    return this.record(BYTES_RECORD, Buffer.from(view.buffer, view.byteOffset, view.byteLength));
  }

  private async record(type: number, payload: Buffer): Promise<void> {
    if (payload.length > MAX_RECORD) throw new Error(`a snapshot record of ${payload.length} bytes`);
    const head = Buffer.alloc(5);
    head.writeUInt8(type, 0);
    head.writeUInt32BE(payload.length, 1);
    await this.put(head);
    await this.put(Buffer.from(payload));
  }

  private async put(bytes: Buffer): Promise<void> {
    this.hash.update(bytes);
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= 1024 * 1024) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (chunks.length > 0) await this.file.writev(chunks);
  }

  /** Appends the digest, flushes to disk and puts the file in place. */
  async commit(): Promise<void> {
    const digest = this.hash.digest();
    const head = Buffer.alloc(5);
    head.writeUInt8(DIGEST_RECORD, 0);
    head.writeUInt32BE(digest.length, 1);
    this.pending.push(head, digest);
    await this.flush();
    await this.file.sync();
    await this.file.close();
    await rename(this.temporary, this.path);
  }

  async abandon(): Promise<void> {
    await this.file.close().catch(() => undefined);
    await rm(this.temporary, { force: true });
  }
}

export type SnapshotRecord = { type: 'json'; value: unknown } | { type: 'bytes'; bytes: Buffer };

/**
 * The records of a snapshot file, in order. Throws when the file is not one (magic, framing) or, after
 * the last record, when its digest differs: a caller applies records to a new index and keeps it only
 * when the whole file was read.
 */
export async function* readSnapshot(path: string): AsyncGenerator<SnapshotRecord> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let buffered = 0;
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024 });
  const source = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  async function take(n: number, hashed = true): Promise<Buffer | null> {
    while (buffered < n) {
      const { value, done } = await source.next();
      if (done) return null;
      chunks.push(value);
      buffered += value.length;
    }
    const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
    chunks.length = 0;
    const out = all.subarray(0, n);
    if (all.length > n) chunks.push(all.subarray(n));
    buffered -= n;
    if (hashed) hash.update(out);
    return out;
  }
  try {
    const magic = await take(MAGIC.length);
    if (!magic || !magic.equals(MAGIC)) throw new Error('not a search index snapshot');
    for (;;) {
      const head = await take(5, false);
      if (!head) throw new Error('the snapshot ends without its digest');
      const type = head.readUInt8(0);
      const length = head.readUInt32BE(1);
      if (length > MAX_RECORD) throw new Error('a snapshot record longer than the bound');
      if (type === DIGEST_RECORD) {
        const digest = await take(length, false);
        if (!digest || !digest.equals(hash.digest())) throw new Error('the snapshot digest does not match its content');
        if ((await take(1, false)) !== null) throw new Error('bytes after the snapshot digest');
        return;
      }
      hash.update(head);
      const payload = await take(length);
      if (!payload) throw new Error('the snapshot ends inside a record');
      if (type === JSON_RECORD) yield { type: 'json', value: JSON.parse(payload.toString('utf8')) as unknown };
      else if (type === BYTES_RECORD) yield { type: 'bytes', bytes: payload };
      else throw new Error(`a snapshot record of unknown type ${type}`);
    }
  } finally {
    stream.destroy();
  }
}
