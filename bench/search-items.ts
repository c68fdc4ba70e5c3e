// The synthetic corpus's units and skills as the search index reads them (SearchItem), and the registry's
// two indexes (KindIndex, embeddings off) built from them in this process: shared by the in-process
// search benches (search-memory.ts, search-latency.ts).
import { corpus, skillItem, unitItem, type Corpus } from './corpus.js';
import { createProvider } from '../src/search/embeddings/factory.js';
import { KindIndex } from '../src/search/registry-index.js';
import { ITEM_NEW_TERMS, ITEM_TERMS } from '../src/search/registry-options.js';
import type { SearchItem } from '../src/search/feed.js';

export type Indexes = { skill: KindIndex; unit: KindIndex };

const provider = createProvider({ kind: 'none' });
const bounds = {
  limits: { perDocument: ITEM_TERMS, newPerDocument: ITEM_NEW_TERMS, perOwner: Infinity, total: Infinity },
  memoryFull: () => false,
};

/** Two empty indexes made as the registry makes them (embeddings off, no vocabulary bound per owner). */
export const makeIndexes = (): Indexes => ({
  skill: new KindIndex('skill', provider, bounds),
  unit: new KindIndex('unit', provider, bounds),
});

/** Unit `i` of a corpus of `units`. */
export function unitSearchItem(c: Corpus, i: number, units: number): SearchItem {
  const { unit } = unitItem(c, i, units);
  return {
    kind: 'unit',
    held: false,
    seq: i + 1,
    id: unit.id,
    agentId: unit.agent_id,
    name: unit.title,
    description: unit.content.description,
    tags: unit.tags,
    domain: unit.domain,
    body: unit.content.examples.join('\n'),
    qualityScore: unit.quality_score,
    createdAt: unit.created_at,
    type: unit.type,
  };
}

/** Skill `i` of a corpus of `units` units. */
export function skillSearchItem(c: Corpus, i: number, units: number): SearchItem {
  const { plan } = skillItem(c, i, units);
  const v = plan.version;
  return {
    kind: 'skill',
    held: false,
    seq: i + 1,
    id: plan.skillId,
    agentId: plan.agentId,
    name: plan.name,
    description: v.description,
    tags: v.tags,
    domain: v.domain,
    body: v.body,
    qualityScore: v.qualityScore,
    createdAt: v.publishedAt,
    visibility: plan.visibility,
    listed: true,
    conformant: v.conformant,
  };
}

/** Both indexes filled with `units` units and `skills` skills of the default corpus, trimmed after the build. */
export function buildIndexes(units: number, skills: number, c: Corpus = corpus()): Indexes {
  const indexes = makeIndexes();
  for (let i = 0; i < units; i++) indexes.unit.put(unitSearchItem(c, i, units));
  for (let i = 0; i < skills; i++) indexes.skill.put(skillSearchItem(c, i, units));
  for (const kind of ['skill', 'unit'] as const) indexes[kind].engine.lexical.trim();
  return indexes;
}
