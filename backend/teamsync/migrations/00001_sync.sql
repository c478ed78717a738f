-- +goose Up
-- Every change of a workspace's shared content is recorded with the
-- transaction that made it (its xid8) and a number from a sequence, by
-- triggers, whichever code path wrote it (a Connected tool, a desktop's
-- push, the people's page). Desktops read changes in (xid, seq) order and
-- only those of transactions older than every transaction still running
-- (pg_snapshot_xmin): a change that becomes visible later always sorts
-- after everything already read, so none is skipped, and writers never
-- wait for each other to be numbered.
CREATE TABLE sync_changes (
	seq          BIGSERIAL PRIMARY KEY,
	xid          XID8 NOT NULL DEFAULT pg_current_xact_id(),
	workspace_id TEXT COLLATE "C" NOT NULL,
	kind         TEXT NOT NULL,
	item_id      TEXT COLLATE "C" NOT NULL,
	project_id   TEXT COLLATE "C" NOT NULL DEFAULT '',
	deleted      BOOLEAN NOT NULL DEFAULT false,
	at           TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sync_changes_order ON sync_changes (workspace_id, xid, seq);

-- +goose StatementBegin
CREATE FUNCTION sync_record(ws TEXT, kind TEXT, item TEXT, project TEXT, gone BOOLEAN) RETURNS VOID AS $$
BEGIN
	INSERT INTO sync_changes (workspace_id, kind, item_id, project_id, deleted)
		VALUES (ws, kind, item, COALESCE(project, ''), gone);
	-- Delivered at commit, once per workspace and transaction.
	PERFORM pg_notify('osf_sync', ws);
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION sync_note_changed() RETURNS TRIGGER AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM sync_record(OLD.workspace_id, 'note', OLD.id, OLD.project_id, true);
		RETURN OLD;
	END IF;
	-- A Note moved to another project is gone from the old one's replicas.
	IF TG_OP = 'UPDATE' AND OLD.project_id IS DISTINCT FROM NEW.project_id THEN
		PERFORM sync_record(OLD.workspace_id, 'note', OLD.id, OLD.project_id, true);
	END IF;
	PERFORM sync_record(NEW.workspace_id, 'note', NEW.id, NEW.project_id, false);
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION sync_project_changed() RETURNS TRIGGER AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM sync_record(OLD.workspace_id, 'project', OLD.id, OLD.id, true);
		RETURN OLD;
	END IF;
	PERFORM sync_record(NEW.workspace_id, 'project', NEW.id, NEW.id, false);
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER sync_notes AFTER INSERT OR UPDATE OR DELETE ON notes
	FOR EACH ROW EXECUTE FUNCTION sync_note_changed();
CREATE TRIGGER sync_projects AFTER INSERT OR UPDATE OR DELETE ON projects
	FOR EACH ROW EXECUTE FUNCTION sync_project_changed();

-- +goose Down
DROP TRIGGER sync_projects ON projects;
DROP TRIGGER sync_notes ON notes;
DROP FUNCTION sync_project_changed();
DROP FUNCTION sync_note_changed();
DROP FUNCTION sync_record(TEXT, TEXT, TEXT, TEXT, BOOLEAN);
DROP TABLE sync_changes;
