// Rules on a knowledge unit that a JSON schema cannot say.
import type { KnowledgeUnitInput } from './model.js';

export type UnitCheck = { ok: true; unit: KnowledgeUnitInput } | { ok: false; field: string; message: string };

const blank = (field: string) => ({ ok: false as const, field, message: `${field} must contain a non-space character` });

/** Trims title, domain and tags; refuses values that are only white space; drops repeated tags. */
export function normalizeUnitInput(input: KnowledgeUnitInput): UnitCheck {
  const title = input.title.trim();
  if (title.length === 0) return blank('title');
  const domain = input.domain.trim();
  if (domain.length === 0) return blank('domain');
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of (input.tags ?? []).entries()) {
    const tag = raw.trim();
    if (tag.length === 0) return blank(`tags.${i}`);
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return { ok: true, unit: { ...input, title, domain, tags } };
}
