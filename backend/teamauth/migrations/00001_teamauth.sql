-- +goose Up
-- People as their OpenID Connect provider names them: (issuer, subject)
-- is the identity; the email is only used to match invitations.
CREATE TABLE teamauth_people (
    id             text PRIMARY KEY,
    issuer         text NOT NULL,
    subject        text NOT NULL,
    email          text NOT NULL DEFAULT '',
    email_verified boolean NOT NULL DEFAULT false,
    name           text NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL,
    signed_in_at   timestamptz NOT NULL,
    UNIQUE (issuer, subject)
);
CREATE INDEX teamauth_people_email ON teamauth_people (email) WHERE email_verified;

-- Sign-ins under way: whichever replica receives the provider's callback
-- finds the nonce and PKCE verifier here. The state is stored hashed; the
-- browser that started the sign-in holds a cookie whose hash must match.
CREATE TABLE teamauth_logins (
    state_hash   text PRIMARY KEY,
    browser_hash text NOT NULL,
    nonce        text NOT NULL,
    verifier     text NOT NULL,
    return_to    text NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX teamauth_logins_expiry ON teamauth_logins (expires_at);

-- Web sessions: the cookie holds a random value, the table its SHA-256.
CREATE TABLE teamauth_sessions (
    hash       text PRIMARY KEY,
    person_id  text NOT NULL REFERENCES teamauth_people (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX teamauth_sessions_person ON teamauth_sessions (person_id);
CREATE INDEX teamauth_sessions_expiry ON teamauth_sessions (expires_at);

CREATE TABLE teamauth_workspaces (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    created_at timestamptz NOT NULL
);

-- A member is a person, or an invited email until that person signs in.
CREATE TABLE teamauth_members (
    id           text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES teamauth_workspaces (id) ON DELETE CASCADE,
    person_id    text REFERENCES teamauth_people (id) ON DELETE CASCADE,
    email        text NOT NULL DEFAULT '',
    role         text NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
    runner       boolean NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL,
    CHECK (person_id IS NOT NULL OR email <> '')
);
CREATE UNIQUE INDEX teamauth_members_person ON teamauth_members (workspace_id, person_id) WHERE person_id IS NOT NULL;
CREATE UNIQUE INDEX teamauth_members_invite ON teamauth_members (workspace_id, email) WHERE person_id IS NULL;
CREATE INDEX teamauth_members_by_person ON teamauth_members (person_id);
CREATE INDEX teamauth_members_by_email ON teamauth_members (email) WHERE person_id IS NULL;

-- Who approves proposals in a project (projects belong to other stores;
-- here a project is its id within the workspace).
CREATE TABLE teamauth_approvers (
    workspace_id text NOT NULL,
    project      text NOT NULL,
    member_id    text NOT NULL REFERENCES teamauth_members (id) ON DELETE CASCADE,
    PRIMARY KEY (workspace_id, project, member_id)
);

-- One-time links that make the first owner; stored hashed.
CREATE TABLE teamauth_bootstrap (
    hash       text PRIMARY KEY,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    used_by    text
);

-- +goose Down
DROP TABLE teamauth_bootstrap;
DROP TABLE teamauth_approvers;
DROP TABLE teamauth_members;
DROP TABLE teamauth_workspaces;
DROP TABLE teamauth_sessions;
DROP TABLE teamauth_logins;
DROP TABLE teamauth_people;
