-- +goose Up
-- Desktops sign in as native apps (RFC 8252): the system browser, a
-- loopback redirect, PKCE. Everything is here so any replica answers.

-- A request waiting on the confirmation page, bound to the web session
-- that was shown it. The form carries a random value; the table its hash.
CREATE TABLE teamauth_desktop_requests (
    hash         text PRIMARY KEY,
    session_hash text NOT NULL,
    person_id    text NOT NULL REFERENCES teamauth_people (id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    challenge    text NOT NULL,
    state        text NOT NULL,
    device       text NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX teamauth_desktop_requests_expiry ON teamauth_desktop_requests (expires_at);

-- One-time codes sent to the loopback redirect; a code names the family
-- of the tokens it starts (its hash), so a replayed code revokes them.
CREATE TABLE teamauth_desktop_codes (
    hash         text PRIMARY KEY,
    person_id    text NOT NULL REFERENCES teamauth_people (id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    challenge    text NOT NULL,
    device       text NOT NULL,
    expires_at   timestamptz NOT NULL,
    used         boolean NOT NULL DEFAULT false
);
CREATE INDEX teamauth_desktop_codes_expiry ON teamauth_desktop_codes (expires_at);

-- Access and refresh tokens, by SHA-256. A refresh token is good once:
-- presenting a used one revokes its whole family.
CREATE TABLE teamauth_desktop_tokens (
    hash       text PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('access', 'refresh')),
    family     text NOT NULL,
    person_id  text NOT NULL REFERENCES teamauth_people (id) ON DELETE CASCADE,
    device     text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used       boolean NOT NULL DEFAULT false,
    revoked    boolean NOT NULL DEFAULT false
);
CREATE INDEX teamauth_desktop_tokens_family ON teamauth_desktop_tokens (family);
CREATE INDEX teamauth_desktop_tokens_person ON teamauth_desktop_tokens (person_id);
CREATE INDEX teamauth_desktop_tokens_expiry ON teamauth_desktop_tokens (expires_at);

-- +goose Down
DROP TABLE teamauth_desktop_tokens;
DROP TABLE teamauth_desktop_codes;
DROP TABLE teamauth_desktop_requests;
