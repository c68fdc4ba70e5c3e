// List items are summaries sized for an agent's context: a skill without its SKILL.md,
// a unit whose long text is cut to documented lengths and marked as cut. GET …/:id returns everything.
import type { Static } from 'typebox';
import type { KnowledgeUnit, KnowledgeUnitSummary, SkillSummary as SkillSummarySchema } from './model.js';

/** A unit's description in a list item: at most this many characters. */
export const SUMMARY_DESCRIPTION_CHARS = 500;
/** A unit's examples in a list item: at most this many, each at most EXAMPLE_CHARS characters. */
export const SUMMARY_EXAMPLES = 3;
export const SUMMARY_EXAMPLE_CHARS = 300;

export type UnitSummary = Static<typeof KnowledgeUnitSummary>;
export type SkillSummary = Static<typeof SkillSummarySchema>;

/** `text` cut to at most `max` UTF-16 units, never inside a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * A unit as a list shows it. Stores may hand over text already cut a little beyond the bounds (to read
 * less); anything beyond them is cut here and the item is marked `truncated`.
 */
export function summarizeUnit(unit: KnowledgeUnit): UnitSummary {
  const { description, examples } = unit.content;
  const shown = examples.slice(0, SUMMARY_EXAMPLES).map((example) => cutText(example, SUMMARY_EXAMPLE_CHARS));
  const truncated =
    description.length > SUMMARY_DESCRIPTION_CHARS ||
    examples.length > SUMMARY_EXAMPLES ||
    shown.some((example, i) => example.length !== examples[i]!.length);
  return {
    ...unit,
    content: { description: cutText(description, SUMMARY_DESCRIPTION_CHARS), examples: shown },
    truncated,
  };
}
