// npm run admin:create -- --agent-id <id> [--tier enterprise]
// Prints a new admin key once. Run on the server host: whoever can run it can already read the database.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/index.js';
import { ApiError } from '../domain/errors.js';
import { randomIds } from '../domain/ids.js';
import { AGENT_ID_PATTERN, KEY_TIERS, type KeyTier } from '../domain/model.js';
import { applyChange } from '../service/context.js';
import { IdentityProviderAgentError, issueKey } from '../service/keys.js';
import { openStore } from '../store/open.js';
import { keepNewFilesPrivate } from '../store/private-files.js';

const usage = 'usage: npm run admin:create -- --agent-id <id> [--tier free|pro|enterprise]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { 'agent-id': { type: 'string' }, tier: { type: 'string', default: 'enterprise' } },
  });
  const agentId = values['agent-id'];
  const tier = values.tier as KeyTier;
  if (!agentId || !new RegExp(AGENT_ID_PATTERN).test(agentId)) {
    console.error(`${usage}\n--agent-id: 1-128 of letters, digits and . _ : @ -, starting with a letter or digit`);
    return 2;
  }
  if (!KEY_TIERS.includes(tier)) {
    console.error(`${usage}\n--tier must be one of ${KEY_TIERS.join(', ')}`);
    return 2;
  }
  const config = loadConfig();
  keepNewFilesPrivate();
  const store = await openStore(config.databaseUrl);
  try {
    // The operator acts for every agent: the key is added to an existing agent too.
    const ctx = { store, config, clock: () => new Date(), ids: randomIds, search: null };
    const created = await issueKey(ctx, { agentId, scopes: ['read', 'write', 'admin'], tier }, true, applyChange);
    const { key_prefix: prefix, scopes } = created.data;
    console.log(`admin key for ${agentId} (prefix ${prefix}, scopes ${scopes.join(' ')}, tier ${tier}):`);
    console.log(created.data.api_key);
    console.log('It is shown only this once; store it now.');
    return 0;
  } catch (error) {
    if (error instanceof IdentityProviderAgentError) {
      console.error(
        `agent ${agentId} was claimed through the identity provider; it gets no API keys (grant admin there)`,
      );
      return 2;
    }
    if (error instanceof ApiError) {
      console.error(`--agent-id: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
