// What a caller hears when an operation fails, the same through every door (REST's error envelope, MCP's
// tool errors): a refusal the services threw (ApiError) as it is; a store error the client can act on as
// 400 (text no backend can store) or 503 (the database is unavailable: retry); anything else a 500 whose
// details stay in the log, never in the answer.
import { ApiError, badRequest, unavailable } from '../domain/errors.js';
import { StoreUnavailableError, UnstorableTextError } from '../store/store.js';

/** Where a door logs what it keeps from the caller (the request's logger). */
export interface ErrorLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export function refusalOf(error: unknown, log: ErrorLog): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UnstorableTextError)
    return badRequest(error.message || 'text contains characters that cannot be stored (NUL or invalid Unicode)');
  // An outage is an operating condition, not a bug: a warning with the reason, without a stack.
  if (error instanceof StoreUnavailableError) {
    log.warn({ reason: error.message }, 'database unavailable');
    return unavailable('the database is unavailable; retry shortly');
  }
  log.error({ err: error }, 'request failed');
  return new ApiError(500, 'INTERNAL_ERROR', 'internal error; the request id in the logs has the details');
}
