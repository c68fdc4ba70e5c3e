// A registry listening on a random port, and MCP clients (the SDK's own) that reach it over Streamable HTTP
// or through the command line's stdio server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { AppOptions } from '../../src/app.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { testApp, type TestApp } from '../helpers/app.js';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface Registry extends TestApp {
  url: string;
}

export async function startedRegistry(options: Partial<AppOptions> = {}): Promise<Registry> {
  const t = await testApp(options.store ?? openSqliteStore('sqlite::memory:'), options);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return { ...t, url: `http://127.0.0.1:${port}` };
}

export async function httpClient(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'registry-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The stdio server of the command line (`mcp --url … [--key …]`), spawned with a config dir of its own. */
export async function stdioClient(url: string, key?: string): Promise<Client> {
  const home = mkdtempSync(join(tmpdir(), 'kreg-mcp-'));
  const client = new Client({ name: 'registry-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp', '--url', url, ...(key ? ['--key', key] : [])],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') },
    stderr: 'ignore',
  });
  transport.onclose = () => rmSync(home, { recursive: true, force: true });
  await client.connect(transport);
  return client;
}

export const SkillEntry = z.object({
  uri: z.string(),
  frontmatter: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ uri: z.string(), digest: z.string() })),
});
export const ListSkillsResult = z.looseObject({ skills: z.array(SkillEntry), nextCursor: z.string().optional() });
export const GetSkillResult = z.looseObject({ skill: SkillEntry });

export async function listSkills(client: Client, cursor?: string) {
  return client.request({ method: 'skills/list', params: cursor ? { cursor } : {} } as never, ListSkillsResult);
}

export async function getSkillEntry(client: Client, uri: string) {
  return client.request({ method: 'skills/get', params: { uri } } as never, GetSkillResult);
}

/** The text of a tool result's first content block. */
export function text(result: unknown): string {
  const content = (result as CallToolResult).content[0];
  return content?.type === 'text' ? content.text : '';
}

/** The text of a read resource's first content. */
export function resourceText(result: { contents: ({ text: string } | { blob: string })[] }): string {
  const first = result.contents[0];
  return first && 'text' in first ? first.text : '';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- structured tool output, checked field by field in the tests
export const structured = (result: unknown): any => (result as CallToolResult).structuredContent;
