// npm run admin:create -- --agent-id <id> [--tier enterprise]
// Prints a new admin key once. Run on the server host: whoever can run it can already read the database.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { isReservedForIdentityProvider } from '../domain/agent-ids.js';
import { randomIds } from '../domain/ids.js';
import { hashApiKey, keyPrefixOf } from '../domain/keys.js';
import { AGENT_ID_PATTERN, KEY_TIERS, type KeyTier, type Scope } from '../domain/model.js';
import { openStore } from '../store/open.js';
import { AgentExistsError, PrefixTakenError, type NewKey } from '../store/store.js';

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
  if (isReservedForIdentityProvider(agentId, config.oidc?.agentPrefix)) {
    console.error(`--agent-id: ids starting with "${config.oidc!.agentPrefix}" are reserved for identity-provider agents`);
    return 2;
  }
  const store = await openStore(config.databaseUrl);
  try {
    const scopes: Scope[] = ['read', 'write', 'admin'];
    for (let attempt = 0; attempt < 8; attempt++) {
      const apiKey = randomIds.apiKey();
      const key: NewKey = { agentId, keyHash: hashApiKey(apiKey), keyPrefix: keyPrefixOf(apiKey), scopes, tier, createdAt: new Date().toISOString() };
      try {
        try {
          await store.createAgentWithKey(key);
        } catch (error) {
          if (!(error instanceof AgentExistsError)) throw error;
          // As on POST /v1/auth/register: an identity-provider agent authenticates with its tokens only.
          if ((await store.agentOrigin(agentId)) === 'oidc') {
            console.error(`agent ${agentId} was claimed through the identity provider; it gets no API keys (grant admin there)`);
            return 2;
          }
          await store.addKey(key);
        }
      } catch (error) {
        if (error instanceof PrefixTakenError) continue;
        throw error;
      }
      console.log(`admin key for ${agentId} (prefix ${key.keyPrefix}, scopes ${scopes.join(' ')}, tier ${tier}):`);
      console.log(apiKey);
      console.log('It is shown only this once; store it now.');
      return 0;
    }
    throw new Error('could not draw an unused key prefix');
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
