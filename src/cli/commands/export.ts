// export: everything tied to an agent, streamed from the registry to a file or to stdout.
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { commandContext, type GlobalOptions, UsageError } from '../context.js';

export function exportCommand(program: Command): void {
  program
    .command('export')
    .description("download everything tied to an agent (its own key, or an admin's) as one JSON document")
    .argument('[agent_id]', 'the agent (default: the one you logged in or registered as)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (agentArgument: string | undefined, options: { out?: string }, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const agentId = agentArgument ?? (ctx.stored.url === ctx.url ? ctx.stored.agent_id : undefined);
      if (!agentId) throw new UsageError('name the agent: export <agent_id> (or log in with --agent-id)');
      const response = await ctx.client.stream(`/v1/export/${encodeURIComponent(agentId)}`);
      const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
      if (!options.out) {
        // The document itself is the output, JSON with or without --json.
        await pipeline(body, process.stdout, { end: false });
        process.stdout.write('\n');
        return;
      }
      let bytes = 0;
      body.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      await pipeline(body, createWriteStream(options.out, { mode: 0o600 }));
      ctx.out.result({ agent_id: agentId, file: options.out, bytes }, () => `exported ${agentId} to ${options.out} (${bytes} bytes)`);
    });
}
