// Quality scores: deterministic, in [0, 1], rounded to 4 decimals. docs/api.md documents these formulas.
import type { KnowledgeUnitInput } from './model.js';
import { isConformanceKind } from './skill-md/types.js';

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const fill = (value: number, target: number) => Math.min(value / target, 1);

/**
 * A unit's score before any verdict:
 *   0.30 × fullness of the description (500 characters count as full)
 * + 0.25 × examples (3 count as full)
 * + 0.15 × a stated source (full for a URL or a DOI-like reference, half for any other text)
 * + 0.20 × the contributor's confidence
 * + 0.10 × tags (3 count as full)
 */
export function unitBaseQuality(unit: KnowledgeUnitInput): number {
  const sourceIsReference = /^(https?:\/\/|doi:|urn:|isbn:)/i.test(unit.metadata.source.trim());
  return round4(
    clamp01(
      0.3 * fill(unit.content.description.trim().length, 500) +
        0.25 * fill(unit.content.examples.length, 3) +
        0.15 * (sourceIsReference ? 1 : 0.5) +
        0.2 * unit.metadata.confidence +
        0.1 * fill(unit.tags?.length ?? 0, 3),
    ),
  );
}

/** Weight of the base score, counted as that many neutral verdicts. */
export const VERDICT_PRIOR_WEIGHT = 4;

/**
 * Verdicts move the score as a weighted mean: the base counts as VERDICT_PRIOR_WEIGHT votes at its own
 * value, `valid` verdicts as votes for 1 and `invalid` ones as votes for 0, each counted with its
 * validator's weight (domain/verdicts.ts: `valid` and `invalid` are the weighted sums). So a valid
 * verdict never lowers a score, an invalid one never raises it, and many verdicts outweigh the base.
 */
export function unitQuality(base: number, valid: number, invalid: number): number {
  const weight = VERDICT_PRIOR_WEIGHT;
  return round4(clamp01((base * weight + valid) / (weight + valid + invalid)));
}

export interface SkillQualityInput {
  description: string;
  body: string;
  license: string | null;
  /** From metadata.domain or a top-level domain alike (the parser reads both). */
  domain: string | null;
  /** From metadata.tags or top-level tags alike (the parser reads both). */
  tags: string[];
  /** The parser's warnings (by kind); a bare number is the older form, each warning counting on its own. */
  warnings: number | readonly { kind: string }[];
}

/**
 * The number of distinct findings the score is lowered for: every kind of warning once, however many
 * warnings of it there are, and all deviations from the Agent Skills format together as one. So a skill
 * with six unknown fields loses 0.05 for not conforming, not 0.25, and a content finding (html,
 * prompt_injection, ...) costs the same whatever the format.
 */
export function skillFindings(warnings: SkillQualityInput['warnings']): number {
  if (typeof warnings === 'number') return warnings;
  const kinds = new Set<string>();
  for (const w of warnings) kinds.add(isConformanceKind(w.kind) ? 'nonconformant' : w.kind);
  return kinds.size;
}

/**
 * A skill's score:
 *   0.25 × fullness of the description (200 characters count as full)
 * + 0.30 × fullness of the body (300 words count as full)
 * + 0.10 for markdown headings in the body, 0.10 for a code block or a list
 * + 0.05 for a license, 0.05 for a domain, 0.15 × tags (3 count as full)
 * − 0.05 for each finding (skillFindings: each warning kind once, format deviations together once), at most −0.25
 */
export function skillQuality(skill: SkillQualityInput): number {
  const words = skill.body.split(/\s+/).filter(Boolean).length;
  const hasHeadings = /^#{1,6}\s+\S/m.test(skill.body);
  const hasCodeOrList = /^(```|~~~|\s*[-*+]\s+\S|\s*\d+\.\s+\S)/m.test(skill.body);
  return round4(
    clamp01(
      0.25 * fill(skill.description.trim().length, 200) +
        0.3 * fill(words, 300) +
        (hasHeadings ? 0.1 : 0) +
        (hasCodeOrList ? 0.1 : 0) +
        (skill.license ? 0.05 : 0) +
        (skill.domain ? 0.05 : 0) +
        0.15 * fill(skill.tags.length, 3) -
        Math.min(0.25, 0.05 * skillFindings(skill.warnings)),
    ),
  );
}
