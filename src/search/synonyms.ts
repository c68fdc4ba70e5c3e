// Widely known technical equivalences: abbreviations, file extensions and product nicknames, written from
// general knowledge (not from any query set). Each group's first member is its canonical form, a single
// word. The analyzer applies the table the same way to items and queries: where a member occurs (a word or
// a sequence of words), the canonical word is added beside the original words, so that either spelling
// finds the other. Members are written lower-case, words separated by spaces. The groups are data, one a
// line in synonyms.json (the build copies it beside the compiled code).

import groups from './synonyms.json' with { type: 'json' };

export const SYNONYM_GROUPS: readonly (readonly string[])[] = groups;
