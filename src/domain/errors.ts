// Every error the API answers is an ApiError, made here; one handler turns it into the envelope.

export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'UNAVAILABLE';

export const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'UNAVAILABLE',
};

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message);
export const unauthorized = (message = 'authentication required: send Authorization: Bearer <api key>') =>
  new ApiError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string) => new ApiError(403, 'FORBIDDEN', message);
export const notFound = (what: string) => new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const methodNotAllowed = (method: string, allowed: string[]) =>
  new ApiError(405, 'METHOD_NOT_ALLOWED', `method ${method} is not allowed here; use ${allowed.join(', ')}`, {
    allow: allowed.join(', '),
  });
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);
export const rateLimited = (retryAfterSeconds: number, limit: number) =>
  new ApiError(
    429,
    'RATE_LIMITED',
    `rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s`,
  );
export const unavailable = (message: string, retryAfterSeconds = 5) =>
  new ApiError(503, 'UNAVAILABLE', message, { 'retry-after': String(retryAfterSeconds) });
