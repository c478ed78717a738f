-- +goose Up
-- Record channels ('rchannel') and their items ('record', the item being
-- "<channel id>/<item id>") are numbered like Notes.

-- +goose StatementBegin
CREATE FUNCTION sync_rchannel_changed() RETURNS TRIGGER AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		PERFORM sync_record(OLD.workspace_id, 'rchannel', OLD.id, OLD.project_id, true);
		RETURN OLD;
	END IF;
	IF TG_OP = 'UPDATE' AND OLD.project_id IS DISTINCT FROM NEW.project_id THEN
		PERFORM sync_record(OLD.workspace_id, 'rchannel', OLD.id, OLD.project_id, true);
	END IF;
	PERFORM sync_record(NEW.workspace_id, 'rchannel', NEW.id, NEW.project_id, false);
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION sync_record_item_changed() RETURNS TRIGGER AS $$
DECLARE
	ch record_channels%ROWTYPE;
	row_ch TEXT;
	row_id TEXT;
BEGIN
	IF TG_OP = 'DELETE' THEN
		row_ch := OLD.channel_id;
		row_id := OLD.id;
	ELSE
		row_ch := NEW.channel_id;
		row_id := NEW.id;
	END IF;
	SELECT * INTO ch FROM record_channels WHERE id = row_ch;
	-- An item gone with its channel: the channel's change says so.
	IF FOUND THEN
		PERFORM sync_record(ch.workspace_id, 'record', row_ch || '/' || row_id, ch.project_id, TG_OP = 'DELETE');
	END IF;
	IF TG_OP = 'DELETE' THEN
		RETURN OLD;
	END IF;
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER sync_rchannels AFTER INSERT OR UPDATE OR DELETE ON record_channels
	FOR EACH ROW EXECUTE FUNCTION sync_rchannel_changed();
CREATE TRIGGER sync_record_items AFTER INSERT OR UPDATE OR DELETE ON record_items
	FOR EACH ROW EXECUTE FUNCTION sync_record_item_changed();

-- +goose Down
DROP TRIGGER sync_record_items ON record_items;
DROP TRIGGER sync_rchannels ON record_channels;
DROP FUNCTION sync_record_item_changed();
DROP FUNCTION sync_rchannel_changed();
