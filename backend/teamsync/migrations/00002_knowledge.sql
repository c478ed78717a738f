-- +goose Up
-- Knowledge bases and their articles are numbered like Notes: a desktop
-- pulls them with the rest of a synced project's changes. An article's
-- item is "<knowledge base id>/<article id>".

-- +goose StatementBegin
CREATE FUNCTION sync_kb_changed() RETURNS TRIGGER AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM sync_record(OLD.workspace_id, 'kb', OLD.id, OLD.project_id, true);
		RETURN OLD;
	END IF;
	IF TG_OP = 'UPDATE' AND OLD.project_id IS DISTINCT FROM NEW.project_id THEN
		PERFORM sync_record(OLD.workspace_id, 'kb', OLD.id, OLD.project_id, true);
	END IF;
	PERFORM sync_record(NEW.workspace_id, 'kb', NEW.id, NEW.project_id, false);
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION sync_article_changed() RETURNS TRIGGER AS $$
DECLARE
	kb knowledge_bases%ROWTYPE;
	row_kb TEXT;
	row_id TEXT;
BEGIN
	IF TG_OP = 'DELETE' THEN
		row_kb := OLD.knowledge_base_id;
		row_id := OLD.id;
	ELSE
		row_kb := NEW.knowledge_base_id;
		row_id := NEW.id;
	END IF;
	SELECT * INTO kb FROM knowledge_bases WHERE id = row_kb;
	-- An article gone with its knowledge base: the base's change says so.
	IF FOUND THEN
		PERFORM sync_record(kb.workspace_id, 'article', row_kb || '/' || row_id, kb.project_id, TG_OP = 'DELETE');
	END IF;
	IF TG_OP = 'DELETE' THEN
		RETURN OLD;
	END IF;
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER sync_kbs AFTER INSERT OR UPDATE OR DELETE ON knowledge_bases
	FOR EACH ROW EXECUTE FUNCTION sync_kb_changed();
CREATE TRIGGER sync_articles AFTER INSERT OR UPDATE OR DELETE ON knowledge_articles
	FOR EACH ROW EXECUTE FUNCTION sync_article_changed();

-- +goose Down
DROP TRIGGER sync_articles ON knowledge_articles;
DROP TRIGGER sync_kbs ON knowledge_bases;
DROP FUNCTION sync_article_changed();
DROP FUNCTION sync_kb_changed();
