// Start-up failures an operator causes (a bad value, a port in use, a database that cannot be opened)
// end the process with one line on stderr and exit code 1, never a stack trace; only an unforeseen
// error (a bug) prints its stack.
import { ConfigError } from './config/index.js';
import { withoutPassword } from './config/read.js';

/** A failure at start-up that one line explains. */
export class StartupError extends Error {}

const firstLine = (error: unknown) =>
  String(error instanceof Error ? error.message : error)
    .split('\n')[0]!
    .slice(0, 300);

/** Runs `open`; any failure becomes a StartupError naming the database (password hidden) and why. */
export async function openingDatabase<T>(url: string, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    throw new StartupError(`cannot open the database ${withoutPassword(url)} (REG_DATABASE_URL): ${firstLine(error)}`);
  }
}

const LISTEN_PROBLEMS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens there: stop it or choose another port)',
  EACCES: 'permission denied (ports below 1024 need privileges: choose another port)',
  EADDRNOTAVAIL: 'this machine has no such address',
  ENOTFOUND: 'the host name does not resolve',
};

/** Runs `listen`; a refused address becomes a StartupError naming it and the variables that set it. */
export async function listening(
  host: string,
  port: number,
  listen: () => Promise<unknown>,
  variables = 'REG_HOST, REG_PORT',
): Promise<void> {
  try {
    await listen();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const why = LISTEN_PROBLEMS[code] ?? firstLine(error);
    throw new StartupError(
      `cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port} (${variables}): ${why}`,
    );
  }
}

/** Writes the line a start-up failure deserves; returns the exit code. */
export function reportStartupFailure(
  error: unknown,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): number {
  if (error instanceof ConfigError) write(`configuration error: ${firstLine(error)}`);
  else if (error instanceof StartupError) write(`start-up failed: ${firstLine(error)}`);
  else write(error instanceof Error ? String(error.stack) : String(error));
  return 1;
}
