// API key format: `reg_` + 40 base62 characters (about 238 random bits). Only the SHA-256 hash is kept.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_BODY_LENGTH = 40;
export const KEY_PREFIX_LENGTH = 8;
const KEY_SHAPE = /^reg_[0-9A-Za-z]{32,128}$/;

export type RandomIndex = (maxExclusive: number) => number;

/** A new raw key; `pick` is injectable so tests can make keys deterministic. */
export function generateApiKey(pick: RandomIndex = randomInt): string {
  let body = '';
  for (let i = 0; i < KEY_BODY_LENGTH; i++) body += BASE62[pick(BASE62.length)];
  return `reg_${body}`;
}

export function looksLikeApiKey(token: string): boolean {
  return KEY_SHAPE.test(token);
}

export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

export function keyPrefixOf(rawKey: string): string {
  return rawKey.slice(0, KEY_PREFIX_LENGTH);
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

const KEY_IN_TEXT = /reg_[0-9A-Za-z]{8,}/g;
/** A JWT: three base64url parts, the first two starting as JSON objects do (`eyJ`). */
const JWT_IN_TEXT = /eyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*/g;

/**
 * Text with every credential in it blanked: API keys (their prefix kept, so an operator can still tell
 * which key it was) and JWTs. For logs: a client may paste a key where none belongs (a query string).
 */
export function redactCredentials(text: string): string {
  return text
    .replace(KEY_IN_TEXT, (key) => `${key.slice(0, KEY_PREFIX_LENGTH)}[redacted]`)
    .replace(JWT_IN_TEXT, '[redacted token]');
}
