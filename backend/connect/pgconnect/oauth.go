package pgconnect

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/osfoundry/desktop/backend/connect"
)

// InsertClientUnder counts and inserts under one advisory lock: a count in
// a statement of its own would let two replicas pass the bound together.
func (s *Store) InsertClientUnder(ctx context.Context, c connect.ClientRow, maxCount, maxBytes int) (bool, error) {
	size := len(c.ID) + len(c.Name) + len(c.RedirectURIs) + len(c.Metadata)
	stored := false
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, 0)`, lockRegister); err != nil {
			return fmt.Errorf("locking registrations: %w", err)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO connect_clients (id, name, redirect_uris, metadata, created_at)
			SELECT $1, $2, $3, $4, $5 WHERE (SELECT COUNT(*) FROM connect_clients) < $6
			AND (SELECT COALESCE(SUM(octet_length(id) + octet_length(name) + octet_length(redirect_uris) + octet_length(metadata)), 0)
				FROM connect_clients) + $7 <= $8`,
			c.ID, clean(c.Name), clean(c.RedirectURIs), clean(c.Metadata), ms(c.CreatedAt), maxCount, size, maxBytes)
		if err != nil {
			return err
		}
		stored = tag.RowsAffected() == 1
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("registering client: %w", err)
	}
	return stored, nil
}

func (s *Store) Client(ctx context.Context, id string) (connect.ClientRow, error) {
	c := connect.ClientRow{ID: id}
	if !storable(id) {
		return c, missing("client")
	}
	err := s.pool.QueryRow(ctx, `SELECT name, redirect_uris, metadata, created_at FROM connect_clients WHERE id = $1`, id).
		Scan(&c.Name, &c.RedirectURIs, &c.Metadata, &c.CreatedAt)
	if err != nil {
		return c, notFound(err, "client")
	}
	c.CreatedAt = c.CreatedAt.UTC()
	return c, nil
}

func (s *Store) InsertAuthRequest(ctx context.Context, a connect.AuthRequestRow) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO connect_auth_requests (id, client_id, redirect_uri, state, code_challenge, scopes, resource, session_hash, csrf, browser_hash, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, a.ID, a.ClientID, clean(a.RedirectURI), []byte(a.State), clean(a.Challenge),
		clean(a.Scopes), clean(a.Resource), a.SessionHash, a.CSRF, a.BrowserHash, ms(a.CreatedAt), ms(a.ExpiresAt))
	if err != nil {
		return fmt.Errorf("saving authorization request: %w", err)
	}
	return nil
}

func (s *Store) AuthRequest(ctx context.Context, id string) (connect.AuthRequestRow, error) {
	a := connect.AuthRequestRow{ID: id}
	if !storable(id) {
		return a, missing("authorization request")
	}
	var state []byte
	err := s.pool.QueryRow(ctx, `SELECT client_id, redirect_uri, state, code_challenge, scopes, resource, session_hash, csrf, browser_hash, created_at, expires_at
		FROM connect_auth_requests WHERE id = $1`, id).Scan(&a.ClientID, &a.RedirectURI, &state, &a.Challenge, &a.Scopes, &a.Resource,
		&a.SessionHash, &a.CSRF, &a.BrowserHash, &a.CreatedAt, &a.ExpiresAt)
	if err != nil {
		return a, notFound(err, "authorization request")
	}
	a.State = string(state)
	a.CreatedAt, a.ExpiresAt = a.CreatedAt.UTC(), a.ExpiresAt.UTC()
	return a, nil
}

func (s *Store) BindAuthRequest(ctx context.Context, id, sessionHash, csrf string) error {
	if _, err := s.pool.Exec(ctx, `UPDATE connect_auth_requests SET session_hash = $2, csrf = $3 WHERE id = $1`, id, sessionHash, csrf); err != nil {
		return fmt.Errorf("continuing authorization request: %w", err)
	}
	return nil
}

func (s *Store) DeleteAuthRequest(ctx context.Context, id string) error {
	if !storable(id) {
		return nil
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM connect_auth_requests WHERE id = $1`, id); err != nil {
		return fmt.Errorf("dropping authorization request: %w", err)
	}
	return nil
}

func (s *Store) WaitingRequests(ctx context.Context, now time.Time, limit int) ([]connect.WaitingRow, error) {
	rows, err := s.pool.Query(ctx, `SELECT a.id, c.name, a.redirect_uri, a.browser_hash, a.created_at
		FROM connect_auth_requests a JOIN connect_clients c ON c.id = a.client_id
		WHERE a.session_hash = '' AND a.expires_at > $1 ORDER BY a.created_at DESC, a.id COLLATE "C" LIMIT $2`, ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("listing waiting requests: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (connect.WaitingRow, error) {
		var w connect.WaitingRow
		err := r.Scan(&w.ID, &w.ClientName, &w.RedirectURI, &w.BrowserHash, &w.CreatedAt)
		w.CreatedAt = w.CreatedAt.UTC()
		return w, err
	})
	if err != nil {
		return nil, fmt.Errorf("listing waiting requests: %w", err)
	}
	return out, nil
}

func (s *Store) InsertCode(ctx context.Context, c connect.CodeRow) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO connect_codes (hash, client_id, connection_id, user_id, redirect_uri, code_challenge, scopes, resource, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, c.Hash, c.ClientID, c.ConnectionID, c.UserID, c.RedirectURI, c.Challenge,
		c.Scopes, c.Resource, ms(c.ExpiresAt))
	if err != nil {
		return fmt.Errorf("issuing code: %w", err)
	}
	return nil
}

const tokenCols = `t.kind, t.family, t.client_id, t.connection_id, t.user_id, t.scopes, t.resource, t.expires_at, t.used, t.revoked`

func scanToken(row pgx.Row, r *connect.TokenRow, more ...any) error {
	err := row.Scan(append([]any{&r.Kind, &r.Family, &r.ClientID, &r.ConnectionID, &r.UserID, &r.Scopes, &r.Resource,
		&r.ExpiresAt, &r.Used, &r.Revoked}, more...)...)
	r.ExpiresAt = r.ExpiresAt.UTC()
	return err
}

// Token is the hot path of every tool call: one indexed read.
func (s *Store) Token(ctx context.Context, hash string) (connect.TokenRow, error) {
	r := connect.TokenRow{Hash: hash}
	if err := scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenCols+` FROM connect_tokens t WHERE t.hash = $1`, hash), &r); err != nil {
		return r, notFound(err, "token")
	}
	return r, nil
}

// Tokens runs f in a read-committed transaction; TokenTx's reads lock
// what they read.
func (s *Store) Tokens(ctx context.Context, f func(connect.TokenTx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		return f(&tokenTx{ctx: ctx, tx: tx})
	})
}

type tokenTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (t *tokenTx) exec(doing, q string, args ...any) error {
	if _, err := t.tx.Exec(t.ctx, q, args...); err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	return nil
}

// lockFamily holds family's advisory lock to the end of the transaction:
// a rotation, a redemption and a revocation of one family take turns, and
// a revocation's UPDATE then sees every token the family holds (under
// read committed it would miss rows a concurrent rotation inserts).
func (t *tokenTx) lockFamily(family string) error {
	return t.exec("locking the token family", `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockFamily, family)
}

// Code locks the family the code starts (named by its hash) and the code.
func (t *tokenTx) Code(hash string) (connect.CodeRow, error) {
	c := connect.CodeRow{Hash: hash}
	if err := t.lockFamily(hash); err != nil {
		return c, err
	}
	err := t.tx.QueryRow(t.ctx, `SELECT client_id, connection_id, user_id, redirect_uri, code_challenge, scopes, resource, expires_at, used
		FROM connect_codes WHERE hash = $1 FOR UPDATE`, hash).Scan(&c.ClientID, &c.ConnectionID, &c.UserID, &c.RedirectURI, &c.Challenge,
		&c.Scopes, &c.Resource, &c.ExpiresAt, &c.Used)
	if err != nil {
		return c, notFound(err, "authorization code")
	}
	c.ExpiresAt = c.ExpiresAt.UTC()
	return c, nil
}

func (t *tokenTx) MarkCodeUsed(hash string) error {
	return t.exec("redeeming code", `UPDATE connect_codes SET used = true WHERE hash = $1`, hash)
}

// Token locks the token's family, the token, and its connection for
// share: revoking the connection or handing it to another assistant waits
// for a rotation under way, and a rotation waiting for them reads what
// they wrote.
func (t *tokenTx) Token(hash string) (connect.TokenRow, error) {
	r := connect.TokenRow{Hash: hash}
	var family string
	if err := t.tx.QueryRow(t.ctx, `SELECT family FROM connect_tokens WHERE hash = $1`, hash).Scan(&family); err != nil {
		return r, notFound(err, "token")
	}
	if err := t.lockFamily(family); err != nil {
		return r, err
	}
	// Tokens cascade with their connection, so the inner join drops none.
	err := scanToken(t.tx.QueryRow(t.ctx, `SELECT `+tokenCols+`, c.status FROM connect_tokens t
		JOIN connect_connections c ON c.id = t.connection_id WHERE t.hash = $1 FOR UPDATE OF t FOR SHARE OF c`, hash), &r, &r.ConnectionStatus)
	if err != nil {
		return r, notFound(err, "token")
	}
	return r, nil
}

func (t *tokenTx) MarkTokenUsed(hash string) error {
	return t.exec("refreshing", `UPDATE connect_tokens SET used = true WHERE hash = $1`, hash)
}

func (t *tokenTx) RevokeFamily(family string) error {
	return t.exec("revoking token family", `UPDATE connect_tokens SET revoked = true WHERE family = $1`, family)
}

func (t *tokenTx) InsertToken(r connect.TokenRow) error {
	return t.exec("issuing tokens", `INSERT INTO connect_tokens (hash, kind, family, client_id, connection_id, user_id, scopes, resource, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, r.Hash, r.Kind, r.Family, r.ClientID, r.ConnectionID, r.UserID, r.Scopes, r.Resource, ms(r.ExpiresAt))
}

// accessQuery re-reads, in one round trip, everything a call depends on.
const accessQuery = `SELECT c.status, c.workspace, c.approver,
	EXISTS (SELECT 1 FROM connect_disabled_tools d WHERE d.connection_id = c.id AND d.tool = $2),
	EXISTS (SELECT 1 FROM connect_projects p WHERE p.connection_id = c.id AND p.project = $3),
	EXISTS (SELECT 1 FROM connect_channel_invites i WHERE i.connection_id = c.id AND i.channel = $4
		AND ($5 = '' OR i.invited_by = $5)),
	u.id IS NOT NULL, COALESCE(u.admin, false),
	COALESCE((SELECT MAX(CASE r.role WHEN 'owner' THEN 3 WHEN 'editor' THEN 2 WHEN 'viewer' THEN 1 ELSE 0 END)
		FROM connect_roles r WHERE r.user_id = c.approver AND r.workspace = c.workspace
		AND (r.project = '' OR r.project = $3)), 0)
FROM connect_connections c LEFT JOIN connect_users u ON u.id = c.approver WHERE c.id = $1`

// Access reads what a call depends on. A project or channel PostgreSQL
// cannot hold is none the connection has ("" never names one).
func (s *Store) Access(ctx context.Context, q connect.AccessQuery) (connect.AccessRow, error) {
	var a connect.AccessRow
	if !storable(q.ConnectionID, q.Tool) {
		return a, missing("connection")
	}
	if !storable(q.Project) {
		q.Project = ""
	}
	if !storable(q.Channel, q.InviteFrom) {
		q.Channel, q.InviteFrom = "", ""
	}
	err := s.pool.QueryRow(ctx, accessQuery, q.ConnectionID, q.Tool, q.Project, q.Channel, q.InviteFrom).
		Scan(&a.Status, &a.Workspace, &a.Approver, &a.ToolOff, &a.InProject, &a.Invited, &a.ApproverKnown, &a.ApproverAdmin, &a.Role)
	if err != nil {
		return a, notFound(err, "connection")
	}
	return a, nil
}
