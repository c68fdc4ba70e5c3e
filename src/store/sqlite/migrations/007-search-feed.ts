// Migration 7: the feed the search index follows. Triggers log every change to a searchable
// item, whatever wrote it, so every instance's index can follow the store; item vectors are kept per
// embedding model and dropped with their item (or when its text changes).
// Never edit a migration that has shipped: add the next number.
export const name = 'search feed: change log and item vectors';

export const sql = `
CREATE TABLE search_changes (
  seq        INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL,
  item_seq   INTEGER NOT NULL
);

CREATE TABLE search_vectors (
  kind     TEXT NOT NULL,
  item_seq INTEGER NOT NULL,
  model    TEXT NOT NULL,
  vector   BLOB NOT NULL,
  PRIMARY KEY (kind, item_seq, model)
) WITHOUT ROWID;

CREATE TRIGGER search_unit_insert AFTER INSERT ON knowledge_units BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('unit', new.seq);
END;
CREATE TRIGGER search_unit_update AFTER UPDATE OF quality_score, title, description, examples, domain, tags, type ON knowledge_units BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('unit', new.seq);
END;
CREATE TRIGGER search_unit_delete AFTER DELETE ON knowledge_units BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('unit', old.seq);
  DELETE FROM search_vectors WHERE kind = 'unit' AND item_seq = old.seq;
END;

CREATE TRIGGER search_skill_insert AFTER INSERT ON skills BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('skill', new.seq);
END;
CREATE TRIGGER search_skill_update AFTER UPDATE ON skills BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('skill', new.seq);
END;
CREATE TRIGGER search_skill_text AFTER UPDATE OF name, display_name, description, version ON skills
  WHEN old.name IS NOT new.name OR old.display_name IS NOT new.display_name OR old.description IS NOT new.description
    OR old.version IS NOT new.version
BEGIN
  DELETE FROM search_vectors WHERE kind = 'skill' AND item_seq = new.seq;
END;
CREATE TRIGGER search_skill_delete AFTER DELETE ON skills BEGIN
  INSERT INTO search_changes (kind, item_seq) VALUES ('skill', old.seq);
  DELETE FROM search_vectors WHERE kind = 'skill' AND item_seq = old.seq;
END;
`;
