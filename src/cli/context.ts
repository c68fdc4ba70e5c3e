// What every command is given (the client, where to print) and how the command line ends: exit codes and
// error printing. Errors print the registry's message (or ours), never a stack.
import { ApiError } from '../domain/errors.js';
import { AnswerTooLargeError } from './answers.js';
import { type ClientOptions, DEFAULTS, RegistryClient, UnreachableError, type Wait } from './client.js';
import { resolveTarget, type StoredLogin } from './config-file.js';
import { printable, printableJson } from './format.js';

/** Exit codes (docs/cli.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** The registry refused or failed (an error answer), or the command could not do what it was asked. */
  failed: 1,
  /** The command line itself is wrong: unknown command or option, a missing argument, a bad value. */
  usage: 2,
  /** The registry could not be reached, or did not answer in time. */
  unreachable: 3,
} as const;

/** A mistake in how the command was called (exit 2). */
export class UsageError extends Error {}
/** Something the command could not do, found on this side (exit 1): a file that exists, a digest that differs. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly code = 'FAILED',
  ) {
    super(message);
  }
}

export interface GlobalOptions {
  url?: string;
  key?: string;
  json?: boolean;
  timeout?: string;
  connectTimeout?: string;
  retries?: string;
}

/** Where the command line prints: the process's stdout and stderr (a test running commands in process may swap them). */
export const terminal: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = {
  stdout: process.stdout,
  stderr: process.stderr,
};

export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = terminal.stdout,
    private readonly stderr: NodeJS.WritableStream = terminal.stderr,
  ) {}

  /**
   * The command's result: `data` as one JSON document with --json, else the human text. Either is printable
   * (format.ts): a registry's text cannot send the terminal control sequences.
   */
  result(data: unknown, human: () => string): void {
    this.stdout.write(this.json ? `${printableJson(JSON.stringify(data))}\n` : `${printable(human())}\n`);
  }

  /** A side remark for people (progress, waits, hints): on stderr, and not at all with --json. */
  note(text: string): void {
    if (!this.json) this.stderr.write(`${printable(text)}\n`);
  }
}

export interface CommandContext {
  client: RegistryClient;
  out: Output;
  url: string;
  key: string | undefined;
  stored: StoredLogin;
}

/** Seconds from a flag or the environment → ms; a usage error naming where the value came from. */
function seconds(value: string | undefined, name: string, fallbackMs: number): number {
  if (value === undefined || value.trim() === '') return fallbackMs;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600)
    throw new UsageError(`${name} must be a number of seconds above 0 and at most 3600, not ${JSON.stringify(value)}`);
  return Math.round(n * 1000);
}

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > 10)
    throw new UsageError(`${name} must be an integer from 0 to 10, not ${JSON.stringify(value)}`);
  return n;
}

/** The flag's value when given, else the environment variable's, named as given for the error. */
const flagOrEnv = (
  flag: string | undefined,
  flagName: string,
  envName: string,
  env: NodeJS.ProcessEnv,
): [string | undefined, string] => (flag !== undefined ? [flag, flagName] : [env[envName], envName]);

/** Every client made, closed when the command ends (their keep-alive connections would hold the process). */
const clients = new Set<RegistryClient>();

export async function closeClients(): Promise<void> {
  await Promise.all([...clients].map((client) => client.close().catch(() => undefined)));
  clients.clear();
}

/** The registry, key and client a command uses; `client` sets what a command needs beyond the defaults. */
export function commandContext(
  options: GlobalOptions,
  client: Partial<ClientOptions> = {},
  env = process.env,
): CommandContext {
  const { url, key, stored } = resolveTarget(options, env);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(url)}`);
  const out = new Output(Boolean(options.json));
  const registry = new RegistryClient({
    ...client,
    url,
    key,
    timeoutMs: seconds(...flagOrEnv(options.timeout, '--timeout', 'REG_TIMEOUT', env), DEFAULTS.timeoutMs),
    connectTimeoutMs: seconds(
      ...flagOrEnv(options.connectTimeout, '--connect-timeout', 'REG_CONNECT_TIMEOUT', env),
      DEFAULTS.connectTimeoutMs,
    ),
    retries: count(...flagOrEnv(options.retries, '--retries', 'REG_RETRIES', env), DEFAULTS.retries),
    onWait: (wait: Wait) => out.note(`${wait.message} (then attempt ${wait.attempt})`),
  });
  clients.add(registry);
  return { client: registry, out, url, key, stored };
}

/** Prints an error the way the command line promises, and answers its exit code. */
export function reportError(error: unknown, json: boolean): number {
  const [exit, code, message, status] =
    error instanceof ApiError
      ? [EXIT.failed, error.code, error.message, error.statusCode]
      : error instanceof UnreachableError
        ? [EXIT.unreachable, 'UNREACHABLE', error.message, undefined]
        : error instanceof UsageError
          ? [EXIT.usage, 'USAGE', error.message, undefined]
          : error instanceof CommandFailed
            ? [EXIT.failed, error.code, error.message, undefined]
            : error instanceof AnswerTooLargeError
              ? [EXIT.failed, 'ANSWER_TOO_LARGE', error.message, undefined]
              : [EXIT.failed, 'FAILED', error instanceof Error ? error.message : String(error), undefined];
  // The code and message may be the registry's own words: printed like any result.
  if (json)
    terminal.stdout.write(
      `${printableJson(JSON.stringify({ error: { code, message, ...(status ? { status } : {}) } }))}\n`,
    );
  else terminal.stderr.write(`${printable(`error: ${error instanceof ApiError ? `${code}: ` : ''}${message}`)}\n`);
  return exit;
}

/** A positive integer option. */
export function integerOption(name: string, min = 0): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min)
      throw new UsageError(`${name} must be an integer of at least ${min}, not ${JSON.stringify(value)}`);
    return n;
  };
}
