// mcp: the registry's MCP server over stdio, for local agents: the same tools and skill:// resources as
// POST /mcp, each answered through the REST API of the registry at --url (with --key, or anonymously).
import type { Command } from 'commander';
import { ApiError } from '../../domain/errors.js';
import { UnreachableError } from '../client.js';
import { CommandFailed } from '../context.js';
import { printable } from '../format.js';
import { withContext } from './actions.js';

export function mcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the registry as an MCP server over stdio (for local agents); stdout carries the protocol only')
    .action(
      withContext(
        async (ctx) => {
          // Loaded here, not at start-up: the other commands do not pay for the MCP SDK.
          const [{ StdioServerTransport }, { createMcpServer }, { restBackend }] = await Promise.all([
            import('@modelcontextprotocol/sdk/server/stdio.js'),
            import('../../mcp/server.js'),
            import('../rest-backend.js'),
          ]);
          // A key the registry refuses fails here, at start, as it does over HTTP (a 401 when connecting);
          // a registry that is down may come up later: the tools then say it cannot be reached.
          if (ctx.key) {
            try {
              await ctx.client.get('/v1/auth/whoami');
            } catch (error) {
              if (error instanceof ApiError && error.statusCode === 401)
                throw new CommandFailed(
                  `the registry at ${ctx.url} refused the API key: ${error.message}`,
                  'KEY_REFUSED',
                );
              if (!(error instanceof UnreachableError)) throw error;
              process.stderr.write(
                `${printable(`the registry at ${ctx.url} cannot be reached now (${error.message}); serving anyway`)}\n`,
              );
            }
          }
          const server = createMcpServer(restBackend(ctx.client));
          const transport = new StdioServerTransport();
          const closed = new Promise<void>((resolve) => {
            transport.onclose = resolve;
          });
          await server.connect(transport);
          process.stderr.write(
            `knowledge-registry MCP server on stdio, for ${ctx.url} (${ctx.key ? 'with an API key' : 'anonymous: read tools only'})\n`,
          );
          process.stdin.on('end', () => void server.close());
          await closed;
        },
        // An agent is told about a rate limit at once (the tool error says when to retry), never kept waiting.
        { rateLimitWaits: 0 },
      ),
    );
}
