// The registry's REST API over HTTP, for the command line and the stdio MCP proxy. Refusals come back as the
// registry's own ApiError (status, code, message); an unreachable or silent registry as UnreachableError. A
// key the registry does not accept is a refusal too (REST would quietly serve such a caller as anonymous).
//
// Time limits: a connection must open within the connect timeout, and a request's answer must start within
// the request timeout, counted from its first attempt: every retry and backoff fits inside it, so a registry
// that accepts connections and never answers costs one timeout, not one per attempt (only a wait the
// registry asks for with Retry-After is added to it). Between two chunks of a body, the registry may fall
// silent for at most the request timeout too. Retries:
// GETs (and POSTs, which carry an Idempotency-Key the registry replays) after a network failure or a 502/503/
// 504, with exponential backoff and full jitter; every request after a 429 or 503, honouring Retry-After up to
// a bound. Every wait is announced first (onWait), so a person sees why nothing moves. Answers are read with a
// byte cap: a registry cannot make the command hold more than it expects.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { ApiError } from '../domain/errors.js';
import { AnswerTooLargeError, backoffMs, discard, readCapped, refusal, retryAfterMs } from './answers.js';
import { PACKAGE_VERSION } from '../version.js';

export const VERSION = PACKAGE_VERSION;

/** The registry could not be reached, or did not answer in time. */
export class UnreachableError extends Error {}
export type Query = Record<string, string | number | boolean | undefined>;
export type Method = 'GET' | 'POST' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** For POSTs: makes a retry safe (the registry replays the first answer). A fresh UUID when absent. */
  idempotencyKey?: string;
  /** The most bytes of the answer's body read (default MAX_JSON_BYTES). */
  maxBytes?: number;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Record<string, string>;
}

/** Why the client waits before trying again, announced before it waits. */
export interface Wait {
  reason: 'rate_limited' | 'unavailable' | 'network';
  /** Whole seconds the client will wait. */
  seconds: number;
  /** The attempt about to be made after the wait (2 for the first retry). */
  attempt: number;
  /** For people: "rate limited: waiting 42s". */
  message: string;
}

export interface ClientOptions {
  url: string;
  key?: string | undefined;
  /** Longest silence of the registry while answering, ms (default 30 s). */
  timeoutMs?: number;
  /** Longest wait for a connection, ms (default 10 s). */
  connectTimeoutMs?: number;
  /** Retries after a network failure or a 5xx the request may repeat (default 2). */
  retries?: number;
  /** Waits for rate limits (429) before giving up (default 3). */
  rateLimitWaits?: number;
  /** The longest Retry-After honoured, ms (default 60 s): a longer one is reported, not waited out. */
  maxRetryWaitMs?: number;
  /** Told before each wait; what it answers, if a function, is called when the wait is over. */
  onWait?: WaitListener;
}

export type WaitListener = (wait: Wait) => void | (() => void);

export const DEFAULTS = {
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  retries: 2,
  rateLimitWaits: 3,
  maxRetryWaitMs: 60_000,
} as const;
/** A JSON answer larger than this is not read: a skill with its SKILL.md and file list, or a unit, is far smaller. */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;

export const KEY_REFUSED =
  'the registry did not accept the API key (unknown, revoked or malformed): log in again, or unset REG_API_KEY / --key';

function withQuery(path: string, query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function networkMessage(
  error: unknown,
  options: Required<Pick<ClientOptions, 'timeoutMs' | 'connectTimeoutMs'>>,
): string {
  const code = (error as { code?: string }).code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `no connection within ${options.connectTimeoutMs / 1000} s`;
  if (code === 'NO_ANSWER' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return `no answer within ${options.timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string } }).cause;
  return code ?? cause?.code ?? (error as Error).message;
}

/** A request's time ran out before its answer started. */
class NoAnswerError extends Error {
  readonly code = 'NO_ANSWER';
}

const RETRYABLE_5XX = new Set([502, 503, 504]);

export class RegistryClient {
  readonly url: string;
  readonly key: string | undefined;
  private readonly options: Required<Omit<ClientOptions, 'key' | 'onWait'>> & Pick<ClientOptions, 'onWait'>;
  private readonly dispatcher: Dispatcher;

  /** `new RegistryClient(options)`, or `(url, key)` with every default. */
  constructor(options: ClientOptions | string, key?: string) {
    const given: ClientOptions = typeof options === 'string' ? { url: options, key } : options;
    this.url = given.url.replace(/\/+$/, '');
    this.key = given.key;
    const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<ClientOptions>;
    this.options = { ...DEFAULTS, ...set, url: this.url } as RegistryClient['options'];
    this.dispatcher = new Agent({
      connect: { timeout: this.options.connectTimeoutMs },
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
  }

  /** Announcements of waits go here from now on (the progress bar of an import takes them over). */
  set onWait(listener: WaitListener | undefined) {
    this.options.onWait = listener;
  }

  /** One call to the API: the parsed body of a 2xx answer, read up to `maxBytes`. */
  async call<T>(method: Method, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const answer = await this.send(method, path, options);
    const text = (
      await this.read(answer.body, options.maxBytes ?? MAX_JSON_BYTES, `the answer to ${method} ${path}`)
    ).toString('utf8');
    let body: T;
    try {
      body = (text ? JSON.parse(text) : undefined) as T;
    } catch {
      throw new ApiError(502, 'INTERNAL_ERROR', `the registry's answer to ${method} ${path} is not JSON`);
    }
    return { status: answer.status, body, headers: answer.headers };
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.call<T>('GET', path, { query }).then((answer) => answer.body);
  }

  post<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<Answer<T>> {
    return this.call<T>('POST', path, { ...options, body });
  }

  delete<T>(path: string): Promise<Answer<T>> {
    return this.call<T>('DELETE', path);
  }

  /** The bytes of a 2xx GET, refused before reading when the answer says it is larger than `maxBytes`. */
  async bytes(path: string, maxBytes: number, what: string): Promise<Buffer> {
    const answer = await this.send('GET', path, {});
    const length = Number(answer.headers['content-length']);
    if (Number.isFinite(length) && length > maxBytes) {
      discard(answer.body);
      throw new AnswerTooLargeError(`${what} is ${length} bytes, more than the ${maxBytes} expected; not downloaded`);
    }
    return this.read(answer.body, maxBytes, what);
  }

  /**
   * An error met while reading an answer's body: the registry fell silent (request timeout) or dropped the
   * connection is an UnreachableError (exit 3); anything else as it is.
   */
  failure(error: unknown): unknown {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('UND_ERR') || ['ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) {
      return new UnreachableError(
        `the registry at ${this.url} stopped answering: ${networkMessage(error, this.options)}`,
      );
    }
    return error;
  }

  private async read(body: Readable, maxBytes: number, what: string): Promise<Buffer> {
    try {
      return await readCapped(body, maxBytes, what);
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** The body of a 2xx GET as a stream (exports): the request timeout bounds each silence, not the whole. */
  async stream(path: string): Promise<Readable> {
    return (await this.send('GET', path, {})).body;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** Announces a wait, waits, and says it is over. */
  private async wait(reason: Wait['reason'], ms: number, attempt: number, why: string, jitterMs = 0): Promise<void> {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    const what =
      reason === 'rate_limited'
        ? 'rate limited'
        : reason === 'unavailable'
          ? `registry unavailable (${why})`
          : `network error (${why})`;
    const over = this.options.onWait?.({ reason, seconds, attempt, message: `${what}: waiting ${seconds}s` });
    try {
      await sleep(ms + jitterMs);
    } finally {
      if (typeof over === 'function') over();
    }
  }

  /** One attempt, abandoned when the request's time (`ms` left of it) is up before its answer starts. */
  private async attempt(
    target: string,
    init: { method: Method; headers: Record<string, string>; body: string | undefined },
    ms: number,
  ): Promise<Dispatcher.ResponseData> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new NoAnswerError()), Math.max(0, ms));
    try {
      return await request(target, { ...init, dispatcher: this.dispatcher, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  private async send(
    method: Method,
    path: string,
    options: RequestOptions,
  ): Promise<{ status: number; headers: Record<string, string>; body: Readable }> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `knowledge-registry-cli/${VERSION}`,
    };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    // A POST carries an Idempotency-Key, the same on every attempt: the registry replays instead of repeating.
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    const repeatable = method !== 'DELETE';
    const target = `${this.url}${withQuery(path, options.query)}`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    // When the answer must have started, every attempt and backoff included.
    let deadline = Date.now() + this.options.timeoutMs;
    let failures = 0;
    let rateLimited = 0;
    for (let attempt = 1; ; attempt++) {
      let response: Dispatcher.ResponseData;
      try {
        response = await this.attempt(target, { method, headers, body }, deadline - Date.now());
      } catch (error) {
        const backoff = backoffMs(failures);
        if (repeatable && failures < this.options.retries && Date.now() + backoff < deadline) {
          failures++;
          await this.wait('network', backoff, attempt + 1, networkMessage(error, this.options));
          continue;
        }
        const tries = attempt > 1 ? ` (${attempt} attempts)` : '';
        throw new UnreachableError(
          `cannot reach the registry at ${this.url}: ${networkMessage(error, this.options)}${tries}`,
        );
      }
      const answerHeaders = Object.fromEntries(
        Object.keys(response.headers).map((name) => [name, header(response.headers, name) ?? '']),
      ) as Record<string, string>;
      const { statusCode: status, body: answer } = response;
      if (this.key && /invalid_token/.test(answerHeaders['www-authenticate'] ?? '')) {
        discard(answer);
        throw new ApiError(401, 'UNAUTHORIZED', KEY_REFUSED);
      }
      if (status >= 200 && status < 300) return { status, headers: answerHeaders, body: answer };
      // 429 and 503 are refused before any work is done: every method may try again after the wait.
      const limited = status === 429 && rateLimited < this.options.rateLimitWaits;
      const busy = (status === 503 || (repeatable && RETRYABLE_5XX.has(status))) && failures < this.options.retries;
      if (limited || busy) {
        const told = retryAfterMs(answerHeaders['retry-after']);
        const backoff = told === undefined ? backoffMs(failures) : 0;
        if (told === undefined ? Date.now() + backoff < deadline : told <= this.options.maxRetryWaitMs) {
          discard(answer);
          // Retry-After as told, plus a little jitter so that waiting clients do not all return at once; a wait
          // the registry asked for is announced and added to the request's time, a backoff of ours is not.
          const [wait, jitter] = told !== undefined ? [told, Math.floor(Math.random() * 250)] : [backoff, 0];
          if (told !== undefined) deadline += wait + jitter;
          if (limited) rateLimited++;
          else failures++;
          await this.wait(limited ? 'rate_limited' : 'unavailable', wait, attempt + 1, `HTTP ${status}`, jitter);
          continue;
        }
      }
      throw await refusal(status, answerHeaders, answer);
    }
  }
}
