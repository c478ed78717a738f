package notes

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/tools"
)

// A guarded write runs as one BEGIN IMMEDIATE transaction:
//
//	idempotency lookup → version compare → apply → bump → store key + result → commit
//
// The lookup comes first so a retry of a write that already committed
// returns its first result (marked replayed) even though the version has
// moved on since. The key, the new version and the result commit together,
// so a crash leaves either all of them or none.
type writeOp struct {
	tool      string
	workspace string
	key       string
	intent    any   // the arguments minus expected_version and idempotency_key
	expected  int64 // expected_version
	what      string
	// check reads the current version inside the transaction. A non-nil
	// Result is a tool-level refusal (missing item, wrong kind).
	check func(tx *wtx) (current int64, refusal *tools.Result, err error)
	// apply makes the change and bumps the version; it returns the result
	// body and, for Note writes, the Note id and new version to announce.
	apply func(tx *wtx) (body map[string]any, noteID string, version int64, err error)
	// conflict builds the version_conflict result for current.
	conflict func(current int64) tools.Result
}

// intentHash identifies what a write wants to do. expected_version is left
// out on purpose: a host that lost the response, re-read the version and
// resent the same change with the same key is retrying the same write, and
// must get the first result instead of a second copy.
func intentHash(tool string, intent any) (string, error) {
	b, err := json.Marshal(intent)
	if err != nil {
		return "", fmt.Errorf("hashing arguments: %w", err)
	}
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (s *Store) guarded(ctx context.Context, op writeOp) (tools.Result, error) {
	hash, err := intentHash(op.tool, op.intent)
	if err != nil {
		return tools.Result{}, err
	}
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", op.what, err)
	}
	defer tx.Rollback()

	var prevTool, prevHash, prev string
	row, err := s.txQueryRow(ctx, tx, `SELECT tool, args_hash, result FROM idempotency WHERE workspace_id = ? AND key = ?`,
		op.workspace, op.key)
	if err == nil {
		err = row.Scan(&prevTool, &prevHash, &prev)
	}
	switch {
	case err == nil:
		if prevTool != op.tool || prevHash != hash {
			return tools.ErrorResult(fmt.Sprintf(
				"idempotency_key %q was already used for a different write (%s with other arguments), so nothing was done. "+
					"Use a new unique idempotency_key for every new intended write.", op.key, prevTool)), nil
		}
		return replay(prev)
	case !errors.Is(err, sql.ErrNoRows):
		return tools.Result{}, fmt.Errorf("%s: looking up idempotency key: %w", op.what, lockErr(err))
	}

	current, refusal, err := op.check(tx)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s: %w", op.what, lockErr(err))
	}
	if refusal != nil {
		return *refusal, nil
	}
	if s.opts.Scope != ScopeNone && current != op.expected {
		return op.conflict(current), nil
	}

	body, noteID, version, err := op.apply(tx)
	if err != nil {
		var ae *argError
		if errors.As(err, &ae) {
			return tools.ErrorResult(ae.msg), nil
		}
		return tools.Result{}, fmt.Errorf("%s: %w", op.what, lockErr(err))
	}
	stored, err := json.Marshal(body)
	if err != nil {
		return tools.Result{}, fmt.Errorf("%s: encoding result: %w", op.what, err)
	}
	if _, err := s.txExec(ctx, tx, `INSERT INTO idempotency (workspace_id, key, tool, args_hash, result, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, op.workspace, op.key, op.tool, hash, string(stored), formatTime(s.now())); err != nil {
		return tools.Result{}, fmt.Errorf("%s: storing idempotency key: %w", op.what, lockErr(err))
	}
	if err := tx.Commit(); err != nil {
		return tools.Result{}, fmt.Errorf("%s: committing: %w", op.what, lockErr(err))
	}
	if noteID != "" {
		s.notify(noteID, version)
	}
	body["replayed"] = false
	return tools.JSONResult(body), nil
}

// replay returns a stored first result, marked replayed.
func replay(stored string) (tools.Result, error) {
	var body map[string]any
	if err := json.Unmarshal([]byte(stored), &body); err != nil {
		return tools.Result{}, fmt.Errorf("decoding stored result: %w", err)
	}
	body["replayed"] = true
	return tools.JSONResult(body), nil
}

// bumpNote moves a Note from version cur to its next version. The WHERE on
// the old version is a second guard: inside BEGIN IMMEDIATE nobody else can
// have changed it, and if that ever broke the write fails loudly.
func (s *Store) bumpNote(ctx context.Context, tx *wtx, noteID string, cur int64, now string) (int64, error) {
	next := s.nextVersion(cur)
	res, err := s.txExec(ctx, tx, `UPDATE notes SET version = ?, updated_at = ? WHERE id = ? AND version = ?`, next, now, noteID, cur)
	if err != nil {
		return 0, fmt.Errorf("bumping note version: %w", err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return 0, fmt.Errorf("bumping note version: note %s changed inside the write transaction", noteID)
	}
	return next, nil
}

func notFound(what string) *tools.Result {
	r := tools.ErrorResult(what)
	return &r
}
