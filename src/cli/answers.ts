// Reading the registry's answers for the client (client.ts): bodies read with a byte cap, refusals as the
// registry's own ApiError, and how long to wait before a retry (Retry-After, or backoff with full jitter).
import type { Readable } from 'node:stream';
import { ApiError, CODE_FOR_STATUS } from '../domain/errors.js';

/** An answer larger than the command expects of it (a hostile or broken registry). */
export class AnswerTooLargeError extends Error {}

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 8_000;

/** Retry-After in ms: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with full jitter (AWS's "full jitter"): a random wait in [0, min(cap, base·2^n)). */
export function backoffMs(retry: number, random = Math.random): number {
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry));
}

/** Stops reading a body and closes its connection; the abort that follows is expected, not an error to report. */
export function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads a body to the end, or throws AnswerTooLargeError past `maxBytes` (and stops reading). */
export async function readCapped(body: Readable, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw new AnswerTooLargeError(`${what} is larger than ${maxBytes} bytes; stopped reading it`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A refusal from an answer's body: the registry's envelope, or the bare status for anything else (a proxy's page). */
export async function refusal(status: number, headers: Record<string, string>, body: Readable): Promise<ApiError> {
  let envelope: { error?: { code?: unknown; message?: unknown } } | undefined;
  try {
    envelope = JSON.parse((await readCapped(body, 64 * 1024, 'the error answer')).toString('utf8'));
  } catch {
    envelope = undefined;
  }
  const retryAfter = headers['retry-after'];
  const kept: Record<string, string> = retryAfter ? { 'retry-after': retryAfter } : {};
  const code = envelope?.error?.code;
  const message = envelope?.error?.message;
  if (typeof code === 'string' && typeof message === 'string')
    return new ApiError(status, code as ApiError['code'], message, kept);
  return new ApiError(status, CODE_FOR_STATUS[status] ?? 'INTERNAL_ERROR', `HTTP ${status}`, kept);
}
