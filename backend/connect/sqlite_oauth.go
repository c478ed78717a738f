package connect

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

func (s *SQLiteStore) InsertClientUnder(ctx context.Context, c ClientRow, maxCount, maxBytes int) (bool, error) {
	size := len(c.ID) + len(c.Name) + len(c.RedirectURIs) + len(c.Metadata)
	// One statement checks the bound and inserts, so concurrent
	// registrations cannot pass it together.
	res, err := s.db.ExecContext(ctx, `INSERT INTO connect_clients (id, name, redirect_uris, metadata, created_at)
		SELECT ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM connect_clients) < ?
		AND (SELECT COALESCE(SUM(LENGTH(CAST(id AS BLOB)) + LENGTH(CAST(name AS BLOB)) + LENGTH(CAST(redirect_uris AS BLOB)) + LENGTH(CAST(metadata AS BLOB))), 0) FROM connect_clients) + ? <= ?`,
		c.ID, c.Name, c.RedirectURIs, c.Metadata, ms(c.CreatedAt), maxCount, size, maxBytes)
	if err != nil {
		return false, fmt.Errorf("registering client: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *SQLiteStore) Client(ctx context.Context, id string) (ClientRow, error) {
	c := ClientRow{ID: id}
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT name, redirect_uris, metadata, created_at FROM connect_clients WHERE id = ?`, id).
		Scan(&c.Name, &c.RedirectURIs, &c.Metadata, &created)
	if err != nil {
		return c, notFound(err, "client")
	}
	c.CreatedAt = fromMS(created)
	return c, nil
}

func (s *SQLiteStore) InsertAuthRequest(ctx context.Context, a AuthRequestRow) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_auth_requests (id, client_id, redirect_uri, state, code_challenge, scopes, resource, session_hash, csrf, expires_at, browser_hash, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.ID, a.ClientID, a.RedirectURI, a.State, a.Challenge, a.Scopes,
		a.Resource, a.SessionHash, a.CSRF, ms(a.ExpiresAt), a.BrowserHash, ms(a.CreatedAt))
	if err != nil {
		return fmt.Errorf("saving authorization request: %w", err)
	}
	return nil
}

func (s *SQLiteStore) AuthRequest(ctx context.Context, id string) (AuthRequestRow, error) {
	a := AuthRequestRow{ID: id}
	var expires, created int64
	err := s.db.QueryRowContext(ctx, `SELECT client_id, redirect_uri, state, code_challenge, scopes, resource, session_hash, csrf, browser_hash, expires_at, created_at
		FROM connect_auth_requests WHERE id = ?`, id).Scan(&a.ClientID, &a.RedirectURI, &a.State, &a.Challenge, &a.Scopes, &a.Resource,
		&a.SessionHash, &a.CSRF, &a.BrowserHash, &expires, &created)
	if err != nil {
		return a, notFound(err, "authorization request")
	}
	a.ExpiresAt, a.CreatedAt = fromMS(expires), fromMS(created)
	return a, nil
}

func (s *SQLiteStore) BindAuthRequest(ctx context.Context, id, sessionHash, csrf string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE connect_auth_requests SET session_hash = ?, csrf = ? WHERE id = ?`, sessionHash, csrf, id); err != nil {
		return fmt.Errorf("continuing authorization request: %w", err)
	}
	return nil
}

func (s *SQLiteStore) DeleteAuthRequest(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM connect_auth_requests WHERE id = ?`, id); err != nil {
		return fmt.Errorf("dropping authorization request: %w", err)
	}
	return nil
}

func (s *SQLiteStore) WaitingRequests(ctx context.Context, now time.Time, limit int) ([]WaitingRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT a.id, c.name, a.redirect_uri, a.browser_hash, a.created_at
		FROM connect_auth_requests a JOIN connect_clients c ON c.id = a.client_id
		WHERE a.session_hash = '' AND a.expires_at > ? ORDER BY a.created_at DESC, a.id LIMIT ?`, ms(now), limit)
	if err != nil {
		return nil, fmt.Errorf("listing waiting requests: %w", err)
	}
	defer rows.Close()
	var out []WaitingRow
	for rows.Next() {
		var w WaitingRow
		var created int64
		if err := rows.Scan(&w.ID, &w.ClientName, &w.RedirectURI, &w.BrowserHash, &created); err != nil {
			return nil, fmt.Errorf("listing waiting requests: %w", err)
		}
		w.CreatedAt = fromMS(created)
		out = append(out, w)
	}
	return out, rows.Err()
}

func (s *SQLiteStore) InsertCode(ctx context.Context, c CodeRow) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO connect_codes (hash, client_id, connection_id, user_id, redirect_uri, code_challenge, scopes, resource, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.Hash, c.ClientID, c.ConnectionID, c.UserID, c.RedirectURI, c.Challenge,
		c.Scopes, c.Resource, ms(c.ExpiresAt))
	if err != nil {
		return fmt.Errorf("issuing code: %w", err)
	}
	return nil
}

// Tokens takes SQLite's write lock at BEGIN (the store's DSN asks for
// immediate transactions), so redemptions take turns.
func (s *SQLiteStore) Tokens(ctx context.Context, f func(TokenTx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("starting a token transaction: %w", err)
	}
	defer tx.Rollback()
	if err := f(sqliteTokenTx{ctx: ctx, tx: tx}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("committing tokens: %w", err)
	}
	return nil
}

type sqliteTokenTx struct {
	ctx context.Context
	tx  *sql.Tx
}

func (t sqliteTokenTx) exec(doing, q string, args ...any) error {
	if _, err := t.tx.ExecContext(t.ctx, q, args...); err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	return nil
}

func (t sqliteTokenTx) Code(hash string) (CodeRow, error) {
	c := CodeRow{Hash: hash}
	var expires int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT client_id, connection_id, user_id, redirect_uri, code_challenge, scopes, resource, expires_at, used
		FROM connect_codes WHERE hash = ?`, hash).Scan(&c.ClientID, &c.ConnectionID, &c.UserID, &c.RedirectURI, &c.Challenge, &c.Scopes, &c.Resource, &expires, &c.Used)
	if err != nil {
		return c, notFound(err, "authorization code")
	}
	c.ExpiresAt = fromMS(expires)
	return c, nil
}

func (t sqliteTokenTx) MarkCodeUsed(hash string) error {
	return t.exec("redeeming code", `UPDATE connect_codes SET used = 1 WHERE hash = ?`, hash)
}

func (t sqliteTokenTx) Token(hash string) (TokenRow, error) {
	r := TokenRow{Hash: hash}
	var expires int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT t.kind, t.family, t.client_id, t.connection_id, t.user_id, t.scopes, t.resource, t.expires_at, t.used, t.revoked,
		COALESCE(c.status, 'revoked') FROM connect_tokens t LEFT JOIN connect_connections c ON c.id = t.connection_id WHERE t.hash = ?`, hash).
		Scan(&r.Kind, &r.Family, &r.ClientID, &r.ConnectionID, &r.UserID, &r.Scopes, &r.Resource, &expires, &r.Used, &r.Revoked, &r.ConnectionStatus)
	if err != nil {
		return r, notFound(err, "token")
	}
	r.ExpiresAt = fromMS(expires)
	return r, nil
}

func (t sqliteTokenTx) MarkTokenUsed(hash string) error {
	return t.exec("refreshing", `UPDATE connect_tokens SET used = 1 WHERE hash = ?`, hash)
}

func (t sqliteTokenTx) RevokeFamily(family string) error {
	return t.exec("revoking token family", `UPDATE connect_tokens SET revoked = 1 WHERE family = ?`, family)
}

func (t sqliteTokenTx) InsertToken(r TokenRow) error {
	return t.exec("issuing tokens", `INSERT INTO connect_tokens (hash, kind, family, client_id, connection_id, user_id, scopes, resource, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Hash, r.Kind, r.Family, r.ClientID, r.ConnectionID, r.UserID, r.Scopes, r.Resource, ms(r.ExpiresAt))
}

const tokenQuery = `SELECT kind, family, client_id, connection_id, user_id, scopes, resource, expires_at, used, revoked FROM connect_tokens WHERE hash = ?`

func (s *SQLiteStore) Token(ctx context.Context, hash string) (TokenRow, error) {
	r := TokenRow{Hash: hash}
	var expires int64
	err := s.q.token.QueryRowContext(ctx, hash).Scan(&r.Kind, &r.Family, &r.ClientID, &r.ConnectionID, &r.UserID, &r.Scopes, &r.Resource, &expires, &r.Used, &r.Revoked)
	if err != nil {
		return r, notFound(err, "token")
	}
	r.ExpiresAt = fromMS(expires)
	return r, nil
}

// accessQuery re-reads, in one round trip, everything a call depends on.
const accessQuery = `SELECT c.status, c.workspace, c.approver,
	(SELECT COUNT(*) FROM connect_disabled_tools d WHERE d.connection_id = c.id AND d.tool = ?),
	(SELECT COUNT(*) FROM connect_projects p WHERE p.connection_id = c.id AND p.project = ?),
	(SELECT COUNT(*) FROM connect_channel_invites i WHERE i.connection_id = c.id AND i.channel = ?
		AND (? = '' OR i.invited_by = ?)),
	COALESCE((SELECT u.admin FROM connect_users u WHERE u.id = c.approver), -1),
	COALESCE((SELECT MAX(CASE r.role WHEN 'owner' THEN 3 WHEN 'editor' THEN 2 WHEN 'viewer' THEN 1 ELSE 0 END)
		FROM connect_roles r WHERE r.user_id = c.approver AND r.workspace = c.workspace
		AND (r.project = '' OR r.project = ?)), 0)
FROM connect_connections c WHERE c.id = ?`

func (s *SQLiteStore) Access(ctx context.Context, q AccessQuery) (AccessRow, error) {
	var a AccessRow
	var off, inProject, invited, admin int
	err := s.q.access.QueryRowContext(ctx, q.Tool, q.Project, q.Channel, q.InviteFrom, q.InviteFrom, q.Project, q.ConnectionID).
		Scan(&a.Status, &a.Workspace, &a.Approver, &off, &inProject, &invited, &admin, &a.Role)
	if err != nil {
		return a, notFound(err, "connection")
	}
	a.ToolOff, a.InProject, a.Invited = off > 0, inProject > 0, invited > 0
	a.ApproverKnown, a.ApproverAdmin = admin >= 0, admin == 1
	return a, nil
}
