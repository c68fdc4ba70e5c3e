// How PostgreSQL's failures reach the registry: text it cannot hold (400), a database that cannot be
// reached or did not answer in time (503, retry), and which constraint a unique violation hit.
import { findUnstorableText } from '../../domain/text.js';
import { StoreUnavailableError, UnstorableTextError } from '../store.js';

const UNSTORABLE_STATES = new Set(['22021', '22P05']); // character_not_in_repertoire, untranslatable_character

// admin_shutdown, crash_shutdown, cannot_connect_now, query_canceled (statement timeout),
// idle_in_transaction_session_timeout, serialization_failure and deadlock_detected (nothing was written:
// a retry may succeed); SQLSTATE classes 08 (connection exception) and 53 (insufficient resources: disk
// full, out of memory, too many connections) are tested apart.
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '25P03', '40001', '40P01']);
const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// node-postgres reports a lost or timed-out connection by message only.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|timeout expired|Query read timeout|Client has encountered a connection error)/;

function isUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SYSTEM_CODES.has(code) || /^(08|53)[0-9A-Z]{3}$/.test(code))
    return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  return isUnavailable(e.cause, depth + 1);
}

/**
 * Text PostgreSQL cannot hold (NUL, bytes that are not UTF-8) becomes UnstorableTextError (routes answer
 * 400); a database that cannot be reached or did not answer in time becomes StoreUnavailableError (503).
 */
export function mapError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || error instanceof UnstorableTextError) return error;
  const e = error as { code?: unknown; message?: unknown; detail?: unknown };
  const said = `${String(e.message ?? '')} ${String(e.detail ?? '')}`;
  if (UNSTORABLE_STATES.has(String(e.code)) || /invalid byte sequence|\\u0000 cannot be converted/.test(said)) {
    return new UnstorableTextError('text contains characters that cannot be stored (NUL or invalid Unicode)');
  }
  if (isUnavailable(error)) {
    const code = typeof e.code === 'string' ? ` [${e.code}]` : '';
    return new StoreUnavailableError(`PostgreSQL is unavailable: ${String(e.message ?? error)}${code}`, {
      cause: error,
    });
  }
  return error;
}

/**
 * Refuses text before it reaches the database: NUL would fail there anyway, but an unpaired surrogate
 * would be silently replaced by U+FFFD when encoded to UTF-8, and a store must not alter what it keeps.
 */
export function refuseUnstorable(value: unknown, name = ''): void {
  const at = findUnstorableText(value, name);
  if (at !== null)
    throw new UnstorableTextError(`${at} contains characters that cannot be stored (NUL or invalid Unicode)`);
}

/** The constraint a unique violation (SQLSTATE 23505) hit, or null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: unknown; constraint?: unknown };
  return e.code === '23505' ? String(e.constraint ?? '') : null;
}

/** A transaction PostgreSQL rolled back to break a deadlock or a serialization conflict: nothing of it was written. */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/** Whether `error` (raw, or mapped to StoreUnavailableError) is a deadlock or a serialization failure. */
export function isConflict(error: unknown): boolean {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  return CONFLICT_STATES.has(String(e.code)) || CONFLICT_STATES.has(String(e.cause?.code));
}

/**
 * Whether PostgreSQL answered a statement with an ERROR (the transaction is rolled back and the session
 * goes on), as opposed to a connection that broke or a FATAL that ended the session, after which what
 * became of a COMMIT is unknown.
 */
export function refusedByServer(error: unknown): boolean {
  const e = error as { severity?: unknown; code?: unknown };
  return e.severity === 'ERROR' && typeof e.code === 'string' && !/^(08|57P)/.test(e.code);
}

/** Whether a statement gave up waiting for a lock (lock_timeout, SQLSTATE 55P03): nothing of it was written. */
export function lockWaitedOut(error: unknown): boolean {
  return (error as { code?: unknown }).code === '55P03';
}
