// Rules on a knowledge unit that a JSON schema cannot say.
import type { KnowledgeUnitInput } from './model.js';
import { distinctTags } from './tags.js';
import { controlCharacterIn, controlCharacterRefusal, hasVisibleCharacter } from './text.js';

export type UnitCheck =
  { ok: true; unit: KnowledgeUnitInput; warnings: string[] } | { ok: false; field: string; message: string };

/** The title's bound (200 characters) applies after trimming; the schema admits surrounding white space. */
export const TITLE_MAX_LENGTH = 200;

const blank = (field: string) => ({
  ok: false as const,
  field,
  message: `${field} must contain a non-space character: a visible letter, digit, punctuation mark or symbol`,
});

/** The short fields, shown on one line: control characters are refused in them. */
function shortFields(input: KnowledgeUnitInput): [string, string][] {
  return [
    ['title', input.title],
    ['domain', input.domain],
    ['metadata.source', input.metadata.source],
    ...(input.tags ?? []).map((tag, i): [string, string] => [`tags.${i}`, tag]),
  ];
}

/** Control characters in the content (long-form, where real files sometimes have them): one warning, not a refusal. */
function contentWarnings(input: KnowledgeUnitInput): string[] {
  const fields: [string, string][] = [
    ['content.description', input.content.description],
    ...input.content.examples.map((example, i): [string, string] => [`content.examples.${i}`, example]),
  ];
  for (const [field, text] of fields) {
    const found = controlCharacterIn(text, true);
    if (found !== null)
      return [
        `${field} contains control characters (first: ${found}), which a terminal acts on instead of showing; they can hide text from reviewers`,
      ];
  }
  return [];
}

/**
 * Trims title, domain and tags; refuses text with nothing visible in it (only white space, or only
 * invisible characters such as zero-width spaces) and control characters in the short fields; drops
 * repeated tags. Control characters in the content are warnings.
 */
export function normalizeUnitInput(input: KnowledgeUnitInput): UnitCheck {
  for (const [field, text] of shortFields(input)) {
    const refusal = controlCharacterRefusal(field, text);
    if (refusal !== null) return { ok: false, field, message: refusal };
  }
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
  const trimmed = (input.tags ?? []).map((tag) => tag.trim());
  const invisible = trimmed.findIndex((tag) => !hasVisibleCharacter(tag));
  if (invisible >= 0) return blank(`tags.${invisible}`);
  return { ok: true, unit: { ...input, title, domain, tags: distinctTags(trimmed) }, warnings: contentWarnings(input) };
}
