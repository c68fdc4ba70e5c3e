// Migration 11: what a write looks up by, so that its cost does not grow with the corpus.
// Never edit a migration that has shipped: add the next number.
export const name = 'writes at scale: skill tags by skill';

export const sql = `
-- A publication re-indexes its skill's tags (DELETE … WHERE skill_seq = ?), and deleting a skill cascades
-- to them: without this index both read every tag of every skill.
CREATE INDEX skill_tags_skill ON skill_tags(skill_seq);
`;
