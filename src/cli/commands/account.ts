// login, logout, register: getting a key and keeping it in the user's config directory.
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { configPath, removeLogin, writeLogin } from '../config-file.js';
import { commandContext, type GlobalOptions, UsageError } from '../context.js';

/** Reads a key typed at a terminal without echoing it, or piped on stdin. */
async function readKey(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.trim();
  }
  process.stderr.write('API key (input hidden): ');
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Echo nothing while the key is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  const key = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return key.trim();
}

interface KeyCreated {
  data: { api_key: string; key_prefix: string; scopes: string[]; tier: string; created_at: string };
  message: string;
}

export function accountCommands(program: Command): void {
  program
    .command('login')
    .description('store an API key for this registry (from --key, REG_API_KEY, stdin, or a prompt) in your config directory, mode 0600')
    .option('--agent-id <id>', 'the agent the key belongs to (the default of export)')
    .action(async (options: { agentId?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const ctx = commandContext({ ...globals, key: undefined });
      const key = globals.key ?? (process.env.REG_API_KEY || undefined) ?? (await readKey());
      if (!key) throw new UsageError('no key given: pass --key, set REG_API_KEY, or type it when asked');
      // A cheap authenticated read: the client refuses a key the registry does not accept.
      await commandContext({ url: ctx.url, key }).client.get('/v1/skills', { limit: 1 });
      const agentId = options.agentId ?? (ctx.stored.url === ctx.url ? ctx.stored.agent_id : undefined);
      const file = writeLogin({ url: ctx.url, key, ...(agentId ? { agent_id: agentId } : {}) });
      ctx.out.result({ url: ctx.url, agent_id: agentId ?? null, config: file }, () => `logged in to ${ctx.url}; key stored in ${file} (mode 0600)`);
    });

  program
    .command('logout')
    .description('forget the stored key')
    .action(async (_options: unknown, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const removed = removeLogin();
      ctx.out.result({ removed, config: configPath() }, () => (removed ? `removed ${configPath()}` : 'no stored login'));
    });

  program
    .command('register')
    .description('register an agent and receive its API key (shown once), stored as your login unless --no-save')
    .argument('<agent_id>', 'the new agent id: letters, digits and . _ : @ -')
    .option('--scopes <list>', 'comma-separated scopes (read, write, admin)', 'read,write')
    .option('--tier <tier>', 'free, pro or enterprise', 'free')
    .option('--no-save', 'print the key without storing it')
    .action(async (agentId: string, options: { scopes: string; tier: string; save: boolean }, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const scopes = options.scopes.split(',').map((s) => s.trim()).filter(Boolean);
      const { body } = await ctx.client.post<KeyCreated>('/v1/auth/register', { agent_id: agentId, scopes, tier: options.tier });
      const file = options.save ? writeLogin({ url: ctx.url, key: body.data.api_key, agent_id: agentId }) : null;
      ctx.out.result({ ...body.data, agent_id: agentId, config: file }, () =>
        [
          `registered ${agentId} (scopes ${body.data.scopes.join(' ')}, tier ${body.data.tier})`,
          `API key (shown once): ${body.data.api_key}`,
          file ? `stored in ${file} (mode 0600)` : 'not stored (--no-save): keep it now',
        ].join('\n'),
      );
    });
}
