-- +goose Up
-- Every channel of a synced project travels, not only its discussion:
-- a new channel is numbered as a 'channel' change (the discussion is
-- matched by project, so it needs none), and a post in any channel of a
-- project that is not private is a 'post' change. Private channels never
-- leave their owner.

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION sync_post_changed() RETURNS TRIGGER AS $$
DECLARE
	ch message_channels%ROWTYPE;
BEGIN
	SELECT * INTO ch FROM message_channels WHERE id = NEW.channel_id;
	IF FOUND AND NOT ch.private AND ch.project_id <> '' THEN
		PERFORM sync_record(ch.workspace_id, 'post', ch.id || '/' || NEW.id, ch.project_id, false);
	END IF;
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION sync_mchannel_changed() RETURNS TRIGGER AS $$
BEGIN
	IF NOT NEW.private AND NOT NEW.discussion AND NEW.project_id <> '' THEN
		PERFORM sync_record(NEW.workspace_id, 'channel', NEW.id, NEW.project_id, false);
	END IF;
	RETURN NEW;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER sync_mchannels AFTER INSERT OR UPDATE ON message_channels
	FOR EACH ROW EXECUTE FUNCTION sync_mchannel_changed();

-- +goose Down
DROP TRIGGER sync_mchannels ON message_channels;
DROP FUNCTION sync_mchannel_changed();
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION sync_post_changed() RETURNS TRIGGER AS $$
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
