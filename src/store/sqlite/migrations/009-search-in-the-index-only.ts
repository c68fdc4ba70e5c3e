// Migration 9: every search is answered by the search index, so the full-text tables go, and with them
// the copy of the default version's SKILL.md on the skill row (versions keep their own).
// Never edit a migration that has shipped: add the next number.
export const name = 'search in the index only: no full-text tables, no SKILL.md copy on the skill row';

export const sql = `
DROP TABLE knowledge_fts;
DROP TABLE skills_fts;
ALTER TABLE skills DROP COLUMN skill_md_content;
`;
