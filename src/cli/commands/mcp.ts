// mcp: the registry's MCP server over stdio, for local agents: the same tools and skill:// resources as
// POST /mcp, each answered through the REST API of the registry at --url (with --key, or anonymously).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { createMcpServer } from '../../mcp/server.js';
import { commandContext, type GlobalOptions } from '../context.js';
import { restBackend } from '../rest-backend.js';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the registry as an MCP server over stdio (for local agents); stdout carries the protocol only')
    .action(async (_options: unknown, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const server = createMcpServer(restBackend(ctx.client));
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
      });
      await server.connect(transport);
      process.stderr.write(`knowledge-registry MCP server on stdio, for ${ctx.url} (${ctx.key ? 'with an API key' : 'anonymous: read tools only'})\n`);
      process.stdin.on('end', () => void server.close());
      await closed;
    });
}
