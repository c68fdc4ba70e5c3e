// Running the command line as a person or a script would: spawned (from source, through tsx), with a home and
// config directory of its own, never blocking the registry or the small misbehaving servers in this process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ROOT } from '../mcp/fixtures.js';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** tsx's loader by absolute URL, so the CLI runs from source whatever the working directory. */
const TSX = import.meta.resolve('tsx');

export function cli(
  home: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', TSX, join(ROOT, 'src/cli/main.ts'), ...args],
      {
        cwd: options.cwd ?? home,
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...options.env },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

export const parsed = (run: Run) => JSON.parse(run.stdout);

export function assertNoStack(run: Run): void {
  assert.doesNotMatch(run.stderr + run.stdout, /\n\s+at .+:\d+:\d+/, 'no stack trace');
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface TestServer {
  url: string;
  server: Server;
  /** Requests seen, as `METHOD /path?query`. */
  requests: string[];
  close(): Promise<void>;
}

/** A small HTTP server on a random port that answers with `handler` (which may also never answer). */
export async function testServer(
  handler: (request: IncomingMessage, response: ServerResponse, path: string) => void,
): Promise<TestServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    handler(request, response, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    server,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
