// Store records for store-level tests that need some units and do not care what they say: each call gives
// a new id and creation time.
import type { KnowledgeUnit } from '../../src/domain/model.js';

let counter = 0;

/**
 * A fact of `agentId`'s with a fresh id (`ku_<prefix>_<n>`), one millisecond after the one before, with
 * `overrides` on top.
 */
export function unitRecord(agentId: string, prefix: string, overrides: Partial<KnowledgeUnit> = {}): KnowledgeUnit {
  counter++;
  const at = new Date(Date.UTC(2026, 10, 24, 10, 0, 0, counter)).toISOString();
  return {
    id: `ku_${prefix}_${counter}`,
    agent_id: agentId,
    title: `Unit ${counter}`,
    type: 'fact',
    domain: prefix,
    content: { description: 'Described.', examples: [] },
    metadata: { source: 'test', confidence: 0.5 },
    tags: [],
    quality_score: 0.5,
    validations: { valid: 0, invalid: 0 },
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}
