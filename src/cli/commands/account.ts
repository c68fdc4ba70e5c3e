// register, login, logout, whoami and keys: getting a key, keeping it in the user's config directory, and
// seeing and revoking the agent's keys.
import type { Command } from 'commander';
import { ApiError } from '../../domain/errors.js';
import type { KeyMetadata, Scope } from '../../domain/model.js';
import { RegisterBody, RevokeBody } from '../../http/schemas.js';
import { checked } from '../checks.js';
import { configPath, removeLogin, writeLogin } from '../config-file.js';
import { commandContext, CommandFailed, type CommandContext, type GlobalOptions, UsageError } from '../context.js';
import { columns } from '../format.js';
import { readKey } from '../prompt.js';
import { withContext } from './actions.js';

interface KeyCreated {
  data: { api_key: string; key_prefix: string; scopes: string[]; tier: string; created_at: string };
  message: string;
}

export interface Identity {
  agent_id: string;
  tier: string;
  scopes: Scope[];
  credential: 'api_key' | 'oidc';
  key_prefix: string | null;
}

/** Who the key of `ctx` is, as the registry says (401 for no key or a refused one). */
export async function whoami(ctx: CommandContext): Promise<Identity> {
  if (!ctx.key) throw new UsageError('no API key: log in (kreg login), or pass --key / set REG_API_KEY');
  return (await ctx.client.get<{ data: Identity }>('/v1/auth/whoami')).data;
}

/**
 * The agent a key belongs to, as the registry says; `expected` must match it. A registry without whoami (an
 * older one) only checks the key with an authenticated read, and the agent is the one given, if any.
 */
async function keyOwner(ctx: CommandContext, expected: string | undefined): Promise<string | undefined> {
  try {
    const { agent_id: agentId } = await whoami(ctx);
    if (expected !== undefined && expected !== agentId)
      throw new CommandFailed(`the key belongs to ${agentId}, not ${expected}; nothing was stored`, 'WRONG_AGENT');
    return agentId;
  } catch (error) {
    if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
    await ctx.client.get('/v1/skills', { limit: 1 });
    return expected;
  }
}

export function accountCommands(program: Command): void {
  program
    .command('login')
    .description(
      'store an API key for this registry (from --key, REG_API_KEY, stdin, or a prompt) in your config directory, mode 0600, after checking it',
    )
    .option('--agent-id <id>', 'the agent you expect the key to belong to (checked against the registry)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg --url https://registry.example login          asks for the key\n  $ echo "$KEY" | kreg login',
    )
    .action(async (options: { agentId?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const ctx = commandContext({ ...globals, key: undefined });
      const key = globals.key ?? (process.env.REG_API_KEY || undefined) ?? (await readKey());
      if (!key) throw new UsageError('no key given: pass --key, set REG_API_KEY, or type it when asked');
      // The client refuses a key the registry does not accept; the registry says whose key it is.
      const checking = commandContext({ ...globals, url: ctx.url, key });
      const agentId = await keyOwner(checking, options.agentId);
      const file = writeLogin({ url: ctx.url, key, ...(agentId ? { agent_id: agentId } : {}) });
      ctx.out.result(
        { url: ctx.url, agent_id: agentId ?? null, config: file },
        () => `logged in to ${ctx.url}${agentId ? ` as ${agentId}` : ''}; key stored in ${file} (mode 0600)`,
      );
    });

  program
    .command('logout')
    .description('forget the stored key')
    .addHelpText('after', '\nExamples:\n  $ kreg logout')
    .action(
      withContext(async (ctx) => {
        const removed = removeLogin();
        ctx.out.result({ removed, config: configPath() }, () =>
          removed ? `removed ${configPath()}` : 'no stored login',
        );
      }),
    );

  program
    .command('register')
    .description('register an agent and receive its API key (shown once), stored as your login unless --no-save')
    .argument('<agent_id>', 'the new agent id: letters, digits and . _ : @ -')
    .option('--scopes <list>', 'comma-separated scopes (read, write, admin)', 'read,write')
    .option('--tier <tier>', 'free, pro or enterprise', 'free')
    .option('--no-save', 'print the key without storing it')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg register my-agent\n  $ kreg register my-agent --scopes read --no-save      a second, read-only key (logged in as my-agent)',
    )
    .action(async (agentId: string, options: { scopes: string; tier: string; save: boolean }, command: Command) => {
      const scopes = options.scopes
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const body = checked(
        RegisterBody,
        { agent_id: agentId, scopes, tier: options.tier },
        { names: { agent_id: 'agent_id', scopes: '--scopes', tier: '--tier' }, coerce: false },
      );
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const { body: created } = await ctx.client.post<KeyCreated>('/v1/auth/register', body);
      const file = options.save ? writeLogin({ url: ctx.url, key: created.data.api_key, agent_id: agentId }) : null;
      ctx.out.result({ ...created.data, agent_id: agentId, config: file }, () =>
        [
          `registered ${agentId} (scopes ${created.data.scopes.join(' ')}, tier ${created.data.tier})`,
          `API key (shown once): ${created.data.api_key}`,
          file ? `stored in ${file} (mode 0600)` : 'not stored (--no-save): keep it now',
        ].join('\n'),
      );
    });

  program
    .command('whoami')
    .description('the agent, tier and scopes of the key in use, and the registry it is for')
    .addHelpText('after', '\nExamples:\n  $ kreg whoami\n  $ kreg --json whoami')
    .action(
      withContext(async (ctx) => {
        const identity = await whoami(ctx);
        const credential =
          identity.credential === 'oidc' ? 'an identity-provider token' : `key ${identity.key_prefix}…`;
        ctx.out.result(
          { ...identity, url: ctx.url },
          () =>
            `${identity.agent_id} at ${ctx.url} (${credential}, tier ${identity.tier}, scopes ${identity.scopes.join(' ')})`,
        );
      }),
    );

  const keys = program
    .command('keys')
    .description("your agent's API keys: list, revoke")
    .addHelpText('after', '\nExamples:\n  $ kreg keys list\n  $ kreg keys revoke reg_AbCd');
  keys
    .command('list')
    .description('every key of your agent: prefix, scopes, tier, dates (never the key itself)')
    .action(
      withContext(async (ctx) => {
        const { data } = await ctx.client.get<{ data: KeyMetadata[] }>('/v1/auth/keys');
        const current = ctx.key?.slice(0, 8);
        ctx.out.result(data, () =>
          data.length === 0
            ? 'no API keys (an identity-provider agent authenticates with tokens)'
            : columns([
                ['prefix', 'scopes', 'tier', 'created', 'revoked', ''],
                ...data.map((k) => [
                  k.key_prefix,
                  k.scopes.join(','),
                  k.tier,
                  k.created_at,
                  k.revoked_at ?? '-',
                  k.key_prefix === current ? '(this key)' : '',
                ]),
              ]),
        );
      }),
    );
  keys
    .command('revoke')
    .description('revoke a key of your agent (admins: any key) by its prefix; it is refused from the next request on')
    .argument('<prefix>', 'the first 8 characters of the key, as keys list shows them')
    .action(async (prefix: string, _options: unknown, command: Command) => {
      const body = checked(
        RevokeBody,
        { key_prefix: prefix },
        { names: { key_prefix: 'the key prefix' }, coerce: false },
      );
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      try {
        const { body: answer } = await ctx.client.post<{ data: { revoked: boolean; key_prefix: string } }>(
          '/v1/auth/revoke',
          body,
        );
        const own = ctx.key?.startsWith(prefix) ? ' It was the key this command used: log in with another.' : '';
        ctx.out.result(answer.data, () => `revoked ${answer.data.key_prefix}.${own}`);
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 404)
          throw new ApiError(404, 'NOT_FOUND', `no active key ${prefix} that this key may revoke`);
        throw error;
      }
    });
}
