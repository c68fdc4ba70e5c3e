// Rules on a knowledge unit that a JSON schema cannot say.
import type { KnowledgeUnitInput } from './model.js';
import { hasVisibleCharacter } from './text.js';

export type UnitCheck = { ok: true; unit: KnowledgeUnitInput } | { ok: false; field: string; message: string };

/** The title's bound (200 characters) applies after trimming; the schema admits surrounding white space. */
export const TITLE_MAX_LENGTH = 200;

const blank = (field: string) => ({
  ok: false as const,
  field,
  message: `${field} must contain a non-space character: a visible letter, digit, punctuation mark or symbol`,
});

/**
 * Trims title, domain and tags; refuses text with nothing visible in it (only white space, or only
 * invisible characters such as zero-width spaces); drops repeated tags.
 */
export function normalizeUnitInput(input: KnowledgeUnitInput): UnitCheck {
  const title = input.title.trim();
  if (!hasVisibleCharacter(title)) return blank('title');
  if (title.length > TITLE_MAX_LENGTH) {
    return {
      ok: false,
      field: 'title',
      message: `title must be 1-${TITLE_MAX_LENGTH} characters after trimming surrounding white space`,
    };
  }
  const domain = input.domain.trim();
  if (!hasVisibleCharacter(domain)) return blank('domain');
  if (!hasVisibleCharacter(input.content.description)) return blank('content.description');
  for (const [i, example] of input.content.examples.entries()) {
    if (!hasVisibleCharacter(example)) return blank(`content.examples.${i}`);
  }
  if (!hasVisibleCharacter(input.metadata.source)) return blank('metadata.source');
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of (input.tags ?? []).entries()) {
    const tag = raw.trim();
    if (!hasVisibleCharacter(tag)) return blank(`tags.${i}`);
    if (seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return { ok: true, unit: { ...input, title, domain, tags } };
}
