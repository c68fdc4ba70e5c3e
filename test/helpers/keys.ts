// A key for a test agent, as the store takes it (the hash and prefix made from the agent id).
import type { NewKey } from '../../src/store/store.js';

export const agentKey = (agentId: string, createdAt: string): NewKey => ({
  agentId,
  keyHash: agentId.padEnd(64, '0'),
  keyPrefix: `reg_${agentId.slice(0, 4)}`,
  scopes: ['read', 'write'],
  tier: 'free',
  createdAt,
});
