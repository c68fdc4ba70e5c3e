// List queries for store tests, written as the filters a list's parameters ask (the store takes the
// condition the domain makes of them: src/domain/lists.ts).
import type { Viewer } from '../../src/domain/access.js';
import { skillListCondition, unitListCondition } from '../../src/domain/lists.js';
import type { SkillQuery, UnitQuery } from '../../src/store/store.js';

export interface UnitFilters {
  viewer?: Viewer;
  types?: readonly string[];
  domain?: string | undefined;
  minQuality?: number | undefined;
  tags?: readonly string[];
  limit?: number;
  offset?: number;
}

export function unitQuery(f: UnitFilters): UnitQuery {
  return {
    condition: unitListCondition(f.viewer ?? { agentId: null, everything: false }, {
      types: f.types?.join(','),
      domain: f.domain,
      min_quality: f.minQuality,
      tags: f.tags?.join(','),
    }),
    limit: f.limit ?? 20,
    offset: f.offset ?? 0,
  };
}

export interface SkillFilters {
  viewer?: Viewer;
  domain?: string | undefined;
  tags?: readonly string[];
  minQuality?: number | undefined;
  conformant?: boolean;
  agentId?: string;
  name?: string;
  limit?: number;
  offset?: number;
}

export function skillQuery(f: SkillFilters): SkillQuery {
  return {
    condition: skillListCondition(f.viewer ?? { agentId: null, everything: false }, {
      domain: f.domain,
      tags: f.tags?.join(','),
      min_quality: f.minQuality,
      conformant: f.conformant,
      publisher: f.agentId,
      name: f.name,
    }),
    limit: f.limit ?? 20,
    offset: f.offset ?? 0,
  };
}
