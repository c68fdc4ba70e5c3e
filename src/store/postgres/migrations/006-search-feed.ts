// Migration 6: the feed the search index follows, as SQLite's migration 7. Triggers log every
// change to a searchable item, whatever wrote it, so every instance's index follows the database.
// Never edit a migration that has shipped: add the next number.
export const name = 'search feed: change log and item vectors';

export const sql = `
CREATE TABLE search_changes (
  seq      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind     text NOT NULL,
  item_seq bigint NOT NULL
);

CREATE TABLE search_vectors (
  kind     text NOT NULL,
  item_seq bigint NOT NULL,
  model    text COLLATE "C" NOT NULL,
  vector   bytea NOT NULL,
  PRIMARY KEY (kind, item_seq, model)
);

CREATE FUNCTION reg_search_unit_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO search_changes (kind, item_seq) VALUES ('unit', OLD.seq);
    DELETE FROM search_vectors WHERE kind = 'unit' AND item_seq = OLD.seq;
    RETURN OLD;
  END IF;
  INSERT INTO search_changes (kind, item_seq) VALUES ('unit', NEW.seq);
  RETURN NEW;
END
$$;
CREATE TRIGGER search_unit_insert_delete AFTER INSERT OR DELETE ON knowledge_units FOR EACH ROW EXECUTE FUNCTION reg_search_unit_changed();
CREATE TRIGGER search_unit_update AFTER UPDATE OF quality_score, title, description, examples, domain, tags, type ON knowledge_units
  FOR EACH ROW EXECUTE FUNCTION reg_search_unit_changed();

CREATE FUNCTION reg_search_skill_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO search_changes (kind, item_seq) VALUES ('skill', OLD.seq);
    DELETE FROM search_vectors WHERE kind = 'skill' AND item_seq = OLD.seq;
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE' AND (OLD.name IS DISTINCT FROM NEW.name OR OLD.display_name IS DISTINCT FROM NEW.display_name
      OR OLD.description IS DISTINCT FROM NEW.description OR OLD.version IS DISTINCT FROM NEW.version) THEN
    DELETE FROM search_vectors WHERE kind = 'skill' AND item_seq = NEW.seq;
  END IF;
  INSERT INTO search_changes (kind, item_seq) VALUES ('skill', NEW.seq);
  RETURN NEW;
END
$$;
CREATE TRIGGER search_skill_changed AFTER INSERT OR UPDATE OR DELETE ON skills FOR EACH ROW EXECUTE FUNCTION reg_search_skill_changed();
`;
