// Tags as lists filter on them: a tag's key is its lower-cased text, and an item's keys are distinct. The
// one statement of that rule: units and skills keep their tags as given (first spelling of each key), the
// store keeps the keys for lists (skill_tags, unit_tags), the search index keeps them for its filter, and a
// list's `tags` parameter is read into keys.

/** A tag's bound, in characters (SKILL.md frontmatter and unit input alike). */
export const TAG_MAX_LENGTH = 50;

export const tagKey = (tag: string): string => tag.toLowerCase();

/** The distinct keys of a list of tags, in order of first appearance. */
export function tagKeys(tags: readonly string[]): string[] {
  return [...new Set(tags.map(tagKey))];
}

/** The tags with one spelling kept per key (the first), in order. */
export function distinctTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tagKey(tag);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
