-- +goose Up
-- Posts in a project's discussion channel are numbered like Notes, so a
-- desktop syncing the project sees them (the item is "<channel>/<post>").

-- +goose StatementBegin
CREATE FUNCTION sync_post_changed() RETURNS TRIGGER AS $$
DECLARE
	ch message_channels%ROWTYPE;
BEGIN
	SELECT * INTO ch FROM message_channels WHERE id = NEW.channel_id;
	IF FOUND AND ch.discussion AND NOT ch.private AND ch.project_id <> '' THEN
		PERFORM sync_record(ch.workspace_id, 'post', ch.id || '/' || NEW.id, ch.project_id, false);
	END IF;
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER sync_posts AFTER INSERT ON messages
	FOR EACH ROW EXECUTE FUNCTION sync_post_changed();

-- +goose Down
DROP TRIGGER sync_posts ON messages;
DROP FUNCTION sync_post_changed();
