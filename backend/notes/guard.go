package notes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
	check func(tx Tx) (current int64, refusal *tools.Result, err error)
	// apply makes the change and bumps the version; it returns the result
	// body and, for Note writes, the Note id and new version to announce.
	apply func(tx Tx) (body map[string]any, noteID string, version int64, err error)
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

// errRefused rolls a guarded write back when apply refuses its arguments:
// the refusal is the tool's result, and nothing of the attempt is kept.
var errRefused = errors.New("write refused")

func (s *core) guarded(ctx context.Context, op writeOp) (tools.Result, error) {
	hash, err := intentHash(op.tool, op.intent)
	if err != nil {
		return tools.Result{}, err
	}
	var (
		res     tools.Result
		body    map[string]any
		noteID  string
		version int64
	)
	err = s.b.Write(ctx, func(tx Tx) error {
		// A backend may run this more than once (PostgreSQL re-runs a write
		// it aborted as a deadlock): start from nothing each time.
		res, body, noteID, version = tools.Result{}, nil, "", 0
		prev, err := tx.Keys().Key(ctx, op.workspace, op.key)
		switch {
		case err == nil:
			if prev.Tool != op.tool || prev.ArgsHash != hash {
				res = tools.ErrorResult(fmt.Sprintf(
					"idempotency_key %q was already used for a different write (%s with other arguments), so nothing was done. "+
						"Use a new unique idempotency_key for every new intended write.", op.key, prev.Tool))
				return nil
			}
			res, err = replay(prev.Result)
			return err
		case !errors.Is(err, ErrNotFound):
			return fmt.Errorf("looking up idempotency key: %w", err)
		}

		current, refusal, err := op.check(tx)
		if err != nil {
			return err
		}
		if refusal != nil {
			res = *refusal
			return nil
		}
		if s.opts.Scope != ScopeNone && current != op.expected {
			res = op.conflict(current)
			return nil
		}

		b, id, v, err := op.apply(tx)
		if err != nil {
			var ae *argError
			if errors.As(err, &ae) {
				res = tools.ErrorResult(ae.msg)
				return errRefused
			}
			return err
		}
		stored, err := json.Marshal(b)
		if err != nil {
			return fmt.Errorf("encoding result: %w", err)
		}
		if err := tx.Keys().InsertKey(ctx, op.workspace, op.key, StoredKey{Tool: op.tool, ArgsHash: hash, Result: string(stored)}, s.now()); err != nil {
			return fmt.Errorf("storing idempotency key: %w", err)
		}
		body, noteID, version = b, id, v
		return nil
	})
	switch {
	case errors.Is(err, errRefused):
		return res, nil
	case err != nil:
		return tools.Result{}, fmt.Errorf("%s: %w", op.what, lockErr(err))
	case body == nil:
		return res, nil
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
func (s *core) bumpNote(ctx context.Context, tx Tx, noteID string, cur int64, now time.Time) (int64, error) {
	next := s.nextVersion(cur)
	ok, err := tx.Notes().SetNoteVersionIf(ctx, noteID, cur, next, now)
	if err != nil {
		return 0, fmt.Errorf("bumping note version: %w", err)
	}
	if !ok {
		return 0, fmt.Errorf("bumping note version: note %s changed inside the write transaction", noteID)
	}
	return next, nil
}

func notFound(what string) *tools.Result {
	r := tools.ErrorResult(what)
	return &r
}
