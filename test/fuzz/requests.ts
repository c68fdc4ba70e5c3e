// Recipes made into requests: the bodies, path ids and credentials the fuzz properties generate, turned
// into what is sent. Shared by the properties that check the answers (http.fuzz) and the one that sends
// the same requests while the instance sheds load (shedding.fuzz).
import * as A from './arbitraries.js';
import type { World } from './harness.js';

interface Built {
  payload: string | Buffer | undefined;
  contentType: string | null;
}

function deepText(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  if (shape === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const half = Math.max(1, Math.floor(depth / 2));
  return '[{"a":'.repeat(half) + 'null' + '}]'.repeat(half);
}

export function buildBody(r: A.BodyRecipe): Built {
  switch (r.kind) {
    case 'json': {
      const text = JSON.stringify(r.value) as string | undefined;
      return { payload: text ?? '', contentType: 'application/json' };
    }
    case 'text':
      return { payload: r.text, contentType: 'application/json' };
    case 'raw':
      return {
        payload: typeof r.payload === 'string' ? r.payload : Buffer.from(r.payload),
        contentType: 'application/json',
      };
    case 'deep': {
      const deep = deepText(r.depth, r.shape);
      return { payload: r.field === null ? deep : `{"${r.field}":${deep}}`, contentType: 'application/json' };
    }
    case 'huge': {
      const marker = '@@FILL@@';
      const base = structuredClone(r.base) as Record<string, unknown>;
      let target: Record<string, unknown> = base;
      for (const key of r.field.slice(0, -1)) {
        const next = target[key];
        if (next === null || typeof next !== 'object') target[key] = {};
        target = target[key] as Record<string, unknown>;
      }
      A.setOwn(target, r.field.at(-1)!, marker);
      const text = JSON.stringify(base);
      const fixed = Buffer.byteLength(text) - marker.length;
      const need = Math.max(0, r.bytes - fixed);
      const unitBytes = Buffer.byteLength(r.filler);
      const filler = r.filler.repeat(Math.floor(need / unitBytes)) + 'x'.repeat(need % unitBytes);
      return { payload: text.replace(`"${marker}"`, `"${filler}"`), contentType: 'application/json' };
    }
    case 'typed':
      return { payload: r.payload, contentType: r.contentType };
  }
}

export function resolveId(w: World, r: A.IdRecipe): { raw: string; decoded: string | null } {
  if (r.kind === 'literal') return { raw: r.raw, decoded: r.decoded };
  const id = {
    unit: w.unit,
    foreignUnit: w.foreignUnit,
    deletedUnit: w.deletedUnits[0]!,
    skill: w.skill,
    privateSkill: w.privateSkill,
    agent: 'writer',
    admin: 'admin',
    unknownAgent: 'nobody-here',
  }[r.pool];
  const enc = (x: string) => A.pctEncode(x);
  switch (r.mutation) {
    case 'none':
      return { raw: enc(id), decoded: id };
    case 'upper':
      return { raw: enc(id.toUpperCase()), decoded: id.toUpperCase() };
    case 'suffix':
      return { raw: enc(`${id}x`), decoded: `${id}x` };
    case 'prefix':
      return { raw: enc(`x${id}`), decoded: `x${id}` };
    case 'truncate':
      return { raw: enc(id.slice(0, -1)), decoded: id.slice(0, -1) };
    case 'trailingSlash':
      return { raw: `${enc(id)}/`, decoded: null };
    case 'encodedSlash':
      return { raw: `${enc(id)}%2F`, decoded: `${id}/` };
    case 'dotdot':
      return { raw: `${enc(id)}/..`, decoded: null };
    case 'doubleEncoded':
      return { raw: enc(enc(id)), decoded: enc(id) };
    case 'nul':
      return { raw: `${enc(id)}%00`, decoded: `${id}\u0000` };
  }
}

/** The path a path recipe's template names, around an id already encoded. */
export function pathFor(template: A.PathTemplate, raw: string): string {
  return {
    unit: `/v1/knowledge/${raw}`,
    skill: `/v1/skills/${raw}`,
    validate: `/v1/knowledge/${raw}/validate`,
    reputation: `/v1/reputation/${raw}`,
    export: `/v1/export/${raw}`,
  }[template];
}
