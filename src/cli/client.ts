// The registry's REST API over HTTP, for the command line and the stdio MCP proxy. Refusals come back as the
// registry's own ApiError (status, code, message); an unreachable registry as UnreachableError. A key the
// registry does not accept is a refusal too (REST would quietly serve such a caller as anonymous).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, CODE_FOR_STATUS } from '../domain/errors.js';

export const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The registry could not be reached at all (refused connection, DNS, timeout). */
export class UnreachableError extends Error {}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** For POSTs: makes a retry safe (the registry replays the first answer). A fresh UUID when absent. */
  idempotencyKey?: string;
  /** Retries after a network failure or a 503 (the same Idempotency-Key each time). */
  retries?: number;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

const TIMEOUT_MS = 60_000;
const MAX_RETRY_WAIT_S = 10;

export const KEY_REFUSED =
  'the registry did not accept the API key (unknown, revoked or malformed): log in again, or unset REG_API_KEY / --key';

function withQuery(path: string, query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** A refusal from an answer's body: the registry's envelope, or the bare status for anything else (a proxy's page). */
async function refusal(response: Response): Promise<ApiError> {
  const text = await response.text();
  let envelope: { error?: { code?: unknown; message?: unknown } } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  const retryAfter = response.headers.get('retry-after');
  const headers: Record<string, string> = retryAfter ? { 'retry-after': retryAfter } : {};
  const code = envelope?.error?.code;
  const message = envelope?.error?.message;
  if (typeof code === 'string' && typeof message === 'string') return new ApiError(response.status, code as ApiError['code'], message, headers);
  return new ApiError(response.status, CODE_FOR_STATUS[response.status] ?? 'INTERNAL_ERROR', `HTTP ${response.status} ${response.statusText}`.trim(), headers);
}

export class RegistryClient {
  readonly url: string;

  constructor(
    url: string,
    readonly key: string | undefined,
  ) {
    this.url = url.replace(/\/+$/, '');
  }

  /** One call to the API; the body of a 2xx answer, parsed. */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const response = await this.fetch(method, path, options);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.call<T>('GET', path, { query, retries: 1 }).then((answer) => answer.body);
  }

  post<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<Answer<T>> {
    return this.call<T>('POST', path, { retries: 1, ...options, body });
  }

  /** The raw answer of a 2xx GET, for streaming (exports, files). */
  stream(path: string): Promise<Response> {
    return this.fetch('GET', path, { retries: 1 });
  }

  private async fetch(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `knowledge-registry-cli/${VERSION}` };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    const target = `${this.url}${withQuery(path, options.query)}`;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= (options.retries ?? 0);
      let response: Response;
      try {
        response = await fetch(target, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        if (!last) {
          await sleep(500);
          continue;
        }
        throw new UnreachableError(`cannot reach the registry at ${this.url}: ${describeNetworkError(error)}`);
      }
      if (this.key && /invalid_token/.test(response.headers.get('www-authenticate') ?? '')) {
        await response.body?.cancel();
        throw new ApiError(401, 'UNAUTHORIZED', KEY_REFUSED);
      }
      if (response.ok) return response;
      if (response.status === 503 && !last) {
        const wait = Math.min(Number(response.headers.get('retry-after')) || 1, MAX_RETRY_WAIT_S);
        await response.body?.cancel();
        await sleep(wait * 1000);
        continue;
      }
      throw await refusal(response);
    }
  }
}
