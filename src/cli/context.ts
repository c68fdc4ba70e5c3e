// What every command is given (the client, where to print) and how the command line ends: exit codes and
// error printing. Errors print the registry's message (or ours), never a stack.
import { ApiError } from '../domain/errors.js';
import { RegistryClient, UnreachableError } from './client.js';
import { resolveTarget, type StoredLogin } from './config-file.js';

/** Exit codes (README "Command line"). */
export const EXIT = {
  ok: 0,
  /** The registry refused or failed (an error answer), or the command could not do what it was asked. */
  failed: 1,
  /** The command line itself is wrong: unknown command or option, a missing argument, a bad value. */
  usage: 2,
  /** The registry could not be reached. */
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
}

export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {}

  /** The command's result: `data` as one JSON document with --json, else the human text. */
  result(data: unknown, human: () => string): void {
    this.stdout.write(this.json ? `${JSON.stringify(data)}\n` : `${human()}\n`);
  }

  /** A side remark for people (progress, hints): on stderr, and not at all with --json. */
  note(text: string): void {
    if (!this.json) this.stderr.write(`${text}\n`);
  }
}

export interface CommandContext {
  client: RegistryClient;
  out: Output;
  url: string;
  key: string | undefined;
  stored: StoredLogin;
}

export function commandContext(options: GlobalOptions): CommandContext {
  const { url, key, stored } = resolveTarget(options);
  try {
    new URL(url);
  } catch {
    throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(url)}`);
  }
  return { client: new RegistryClient(url, key), out: new Output(Boolean(options.json)), url, key, stored };
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
            : [EXIT.failed, 'FAILED', error instanceof Error ? error.message : String(error), undefined];
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message, ...(status ? { status } : {}) } })}\n`);
  else process.stderr.write(`error: ${error instanceof ApiError ? `${code}: ` : ''}${message}\n`);
  return exit;
}

/** A positive integer option. */
export function integerOption(name: string, min = 0): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${name} must be an integer of at least ${min}, not ${JSON.stringify(value)}`);
    return n;
  };
}
