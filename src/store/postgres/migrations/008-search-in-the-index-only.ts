// Migration 8: every search is answered by the search index (as SQLite's migration 9), so the generated
// tsvector columns, their GIN indexes and the text search configuration go, and with them the copies of
// the default version's SKILL.md and body on the skill row (versions keep their own). Writes no longer
// recompute a search vector.
// Never edit a migration that has shipped: add the next number.
export const name = 'search in the index only: no tsvector columns, no SKILL.md copy on the skill row';

export const sql = `
DROP INDEX IF EXISTS knowledge_search;
DROP INDEX IF EXISTS skills_search;
ALTER TABLE knowledge_units DROP COLUMN IF EXISTS search;
ALTER TABLE skills DROP COLUMN IF EXISTS search;
ALTER TABLE skills DROP COLUMN IF EXISTS body;
ALTER TABLE skills DROP COLUMN IF EXISTS skill_md_content;
DROP FUNCTION IF EXISTS reg_search_text(jsonb);
DROP FUNCTION IF EXISTS reg_search_text(text);
DROP FUNCTION IF EXISTS reg_search_lower(text);
DROP TEXT SEARCH CONFIGURATION IF EXISTS reg_search;
`;
