// export and reputation: everything tied to an agent, streamed from the registry to a file or to stdout, and
// an agent's reputation profile. Without an agent id, both mean the agent the key names (whoami).
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { ReputationProfile } from '../../domain/model.js';
import { AgentParams } from '../../http/schemas.js';
import { checked } from '../checks.js';
import { ApiError } from '../../domain/errors.js';
import { type CommandContext, UsageError } from '../context.js';
import { columns, plural, printableJsonStream } from '../format.js';
import { whoami } from './account.js';
import { withContext } from './actions.js';

/** The agent named, checked as the API checks it, or the one the key belongs to. */
async function agentOf(ctx: CommandContext, given: string | undefined): Promise<string> {
  if (given !== undefined)
    return checked<{ agent_id: string }>(AgentParams, { agent_id: given }, { names: { agent_id: 'agent_id' } })
      .agent_id;
  try {
    return (await whoami(ctx)).agent_id;
  } catch (error) {
    // A registry without whoami (an older one): the agent stored with the login for it, if any.
    const stored = ctx.stored.url === ctx.url ? ctx.stored.agent_id : undefined;
    if (error instanceof ApiError && error.statusCode === 404 && stored) return stored;
    if (error instanceof ApiError && error.statusCode === 404)
      throw new UsageError('name the agent: this registry cannot say whose key it is');
    throw error;
  }
}

export function exportCommand(program: Command): void {
  program
    .command('export')
    .description("download everything tied to an agent (its own key, or an admin's) as one JSON document")
    .argument('[agent_id]', 'the agent (default: the one the key belongs to)')
    .option('--out <file>', 'write to this file (mode 0600) instead of stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg export --out me.json\n  $ kreg export other-agent > other.json     (an admin key)',
    )
    .action(
      withContext(async (ctx, agentArgument: string | undefined, options: { out?: string }) => {
        const agentId = await agentOf(ctx, agentArgument);
        const body = await ctx.client.stream(`/v1/export/${encodeURIComponent(agentId)}`);
        const failed = (error: unknown) => Promise.reject(ctx.client.failure(error));
        if (!options.out) {
          // The document itself is the output, JSON with or without --json, printable as every result is.
          await pipeline(body, printableJsonStream(), process.stdout, { end: false }).catch(failed);
          process.stdout.write('\n');
          return;
        }
        let bytes = 0;
        body.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        // Written beside the file and renamed when complete: a cut export never looks like a whole one.
        const partial = `${options.out}.${randomBytes(4).toString('hex')}.partial`;
        try {
          await pipeline(body, createWriteStream(partial, { mode: 0o600 })).catch(failed);
          await rename(partial, options.out);
        } finally {
          await rm(partial, { force: true });
        }
        ctx.out.result(
          { agent_id: agentId, file: options.out, bytes },
          () => `exported ${agentId} to ${options.out} (${bytes} bytes)`,
        );
      }),
    );

  program
    .command('reputation')
    .description("an agent's reputation: score, contributions, validations and the newest history (no key needed)")
    .argument('[agent_id]', 'the agent (default: the one the key belongs to)')
    .addHelpText('after', '\nExamples:\n  $ kreg reputation\n  $ kreg --json reputation some-agent')
    .action(
      withContext(async (ctx, agentArgument: string | undefined) => {
        const agentId = await agentOf(ctx, agentArgument);
        const { data } = await ctx.client.get<{ data: ReputationProfile }>(
          `/v1/reputation/${encodeURIComponent(agentId)}`,
        );
        ctx.out.result(data, () =>
          [
            `${data.agent_id}: score ${data.score} REG-REP, ${plural(data.contributions, 'contribution')}, ${plural(data.validations, 'validation')} (updated ${data.updated_at})`,
            ...(data.history.length > 0
              ? [
                  columns(
                    data.history
                      .slice(0, 10)
                      .map((h) => [h.timestamp, h.action, `${h.delta > 0 ? '+' : ''}${h.delta}`, h.target_id]),
                  ),
                ]
              : []),
            ...(data.history.length > 10
              ? [`… and ${plural(data.history.length - 10, 'older item')} (--json has them)`]
              : []),
          ].join('\n'),
        );
      }),
    );
}
