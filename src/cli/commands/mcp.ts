// mcp: the registry's MCP server over stdio, for local agents: the same tools and skill:// resources as
// POST /mcp, each answered through the REST API of the registry at --url (with --key, or anonymously).
import type { Command } from 'commander';
import { commandContext, type GlobalOptions } from '../context.js';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the registry as an MCP server over stdio (for local agents); stdout carries the protocol only')
    .action(async (_options: unknown, command: Command) => {
      // An agent is told about a rate limit at once (the tool error says when to retry), never kept waiting.
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>(), { rateLimitWaits: 0 });
      // Loaded here, not at start-up: the other commands do not pay for the MCP SDK.
      const [{ StdioServerTransport }, { createMcpServer }, { restBackend }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/server.js'),
        import('../rest-backend.js'),
      ]);
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
