// Bounds of SKILL.md parsing. Each is checked in linear time before the YAML library sees the text, so the
// worst document within them parses in milliseconds (bench/skill-md-parse.ts). "Real files" below means
// the 20,000 public SKILL.md files the bounds were measured on.

/** The whole SKILL.md, in characters (code points); the HTTP schema enforces the same bound. */
export const MAX_SKILL_MD_CHARS = 100_000;
/** The frontmatter between the --- lines, in characters. Real files: p99 0.9 KB, largest 3.5 KB. */
export const MAX_FRONTMATTER_CHARS = 32_768;
/** Lines of frontmatter. Real files: p99 22, largest 107. */
export const MAX_FRONTMATTER_LINES = 1_000;
/**
 * Mapping keys at every level, counted as YAML's lexer reads them: every `key:` (block or flow), including
 * the `word: ` pairs that make an unquoted value invalid YAML. Real files: p99 14, largest 90.
 */
export const MAX_FRONTMATTER_KEYS = 256;
/**
 * Values at every level, counted as YAML's lexer reads them: scalars (keys included), list items, the
 * brackets and commas of flow collections, aliases, anchors, tags. Real files: p99 about 50, largest about
 * 220. The YAML library takes 5-10 µs a value, so this bound is what keeps the worst case in milliseconds.
 */
export const MAX_FRONTMATTER_VALUES = 512;
/** Nesting of collections; the top-level mapping is 1, so `metadata: {a: b}` is 2. Real files: at most 6. */
export const MAX_FRONTMATTER_DEPTH = 12;
/** Aliases (`*a`) may repeat anchored values, but the frontmatter may expand to at most this many characters. */
export const MAX_FRONTMATTER_EXPANDED_CHARS = 2 * MAX_FRONTMATTER_CHARS;

/** The Agent Skills format's bound on `name` (the registry's slug is cut to it). */
export const MAX_NAME_CHARS = 64;
/** The Agent Skills format's bound on `description`; longer ones are accepted with a `description_long` warning... */
export const MAX_CONFORMANT_DESCRIPTION_CHARS = 1_024;
/** ...up to this bound, beyond which the skill is refused (`description_too_long`). Real files: largest 1,641. */
export const MAX_DESCRIPTION_CHARS = 4_096;
/** The Agent Skills format's bound on `compatibility`; longer ones are kept with a `nonconformant_field` warning. */
export const MAX_COMPATIBILITY_CHARS = 500;

/** Registry limits on the fields it indexes; values beyond them are left out with a `value_ignored` warning. */
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 50;
export const MAX_DOMAIN_CHARS = 100;
export const MAX_ALLOWED_TOOLS = 100;
export const MAX_ALLOWED_TOOL_CHARS = 200;

/** A body over either bound gets a `long_body` warning (the format recommends under 500 lines). */
export const LONG_BODY_LINES = 500;
export const LONG_BODY_CHARS = 50_000;

/** Warnings of one kind beyond this many are summed up in one last warning of that kind. */
export const MAX_WARNINGS_PER_KIND = 20;
