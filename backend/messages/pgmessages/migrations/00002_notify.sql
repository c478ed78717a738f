-- Every committed post is announced on the osf_messages notification
-- channel as "<channel id> <seq>", so each replica can tell the people and
-- assistants following a channel, whichever replica took the post.
-- PostgreSQL delivers notifications at commit, in commit order, and never
-- for a rolled-back post.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION messages_notify_post() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('osf_messages', NEW.channel_id || ' ' || NEW.seq);
	RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER messages_notify_post AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION messages_notify_post();

-- +goose Down
DROP TRIGGER messages_notify_post ON messages;
DROP FUNCTION messages_notify_post();
