package teamclient

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// EventDraft carries a draft the replica kept for the person when their
// edit lost the race on the server (a notes.Draft).
const EventDraft = "notes:draft"

// Replica keeps this desktop's copies of its Synced projects in step with
// the team server (TEAM.md, "Sync without magic"): the server numbers
// every change of a workspace; the replica pulls what came after the last
// number it holds, hears of new ones live, and sends the person's edits as
// the same conditional writes assistants make, in order, from an outbox
// that survives the app being closed or offline. An edit that lost the
// race becomes an editor draft beside the server's text, which the editor
// shows as compare / re-apply: nothing is overwritten silently and nothing
// typed is lost.
//
// Only Notes of Synced projects are sent; Local-only projects, terminal
// text and sessions never are. A synced project's knowledge bases,
// Records and discussion channel travel too (replica_knowledge.go,
// replica_records.go, replica_posts.go).
type Replica struct {
	c     *Client
	notes *notes.Store
	db    *sql.DB
	log   *slog.Logger

	msgs       *messages.Store // nil: discussion channels stay here
	unsubPosts func()
	unsubItems func()

	pass     sync.Mutex // one sync pass at a time
	queue    sync.Mutex // one look at the outbox and what to add at a time
	applying sync.Map   // note id → the server's copy being put (a notes.Note)
	wake     chan struct{}
	unsub    func()
}

// NewReplica opens the bookkeeping in st's database and starts noting the
// person's edits of synced Notes.
func NewReplica(ctx context.Context, c *Client, st *notes.Store, log *slog.Logger) (*Replica, error) {
	db := st.DB()
	if db == nil {
		return nil, errors.New("synced projects need the app's own database")
	}
	if err := store.Migrate(ctx, db, ReplicaComponent, replicaMigrations); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Replica{c: c, notes: st, db: db, log: log, wake: make(chan struct{}, 1)}
	r.unsub = st.OnChange(r.noteChanged)
	// Knowledge and Records saved here wake a pass at once (a pass sends
	// what differs from the server's copy; watchKnowledge catches other
	// processes' writes).
	r.unsubItems = st.OnItemChange(func(notes.ItemChange) { r.poke() })
	return r, nil
}

// Close stops noting edits.
func (r *Replica) Close() {
	r.unsub()
	r.unsubItems()
	if r.unsubPosts != nil {
		r.unsubPosts()
	}
}

func (r *Replica) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// noteChanged queues a local edit of a synced Note. The server's copy
// being put notifies too: only a Note that holds exactly that copy's text
// is skipped, so an edit the person saves at that very moment still goes
// up. (The version tells nothing here: the copy takes a local version of
// its own, which may be any number above the last.)
func (r *Replica) noteChanged(noteID string, _ int64) {
	if c, ok := r.applying.Load(noteID); ok {
		if n, err := r.notes.GetNote(context.Background(), noteID); err == nil && sameText(n, c.(notes.Note)) {
			return
		}
	}
	if err := r.queueEdit(context.Background(), noteID); err != nil {
		r.log.Warn("keeping an edit for the team server", "note", noteID, "error", err.Error())
	}
	r.poke()
}

func (r *Replica) queueEdit(ctx context.Context, noteID string) error {
	// Two notices of one save (the person's and a copy being put) must not
	// both find nothing queued and send the same text twice.
	r.queue.Lock()
	defer r.queue.Unlock()
	n, err := r.notes.GetNote(ctx, noteID)
	if err != nil || n.Project == "" {
		return err
	}
	p, err := r.projectOf(ctx, n.Project)
	if err != nil || p.workspace == "" {
		return err // Local-only: nothing leaves
	}
	copyOf, known, err := r.serverCopy(ctx, noteID)
	if err != nil {
		return err
	}
	if !known {
		queued, err := r.hasPending(ctx, noteID)
		if err != nil || queued {
			return err // its create is queued with its first text; later text follows as edits
		}
		tab, text := firstText(n)
		return r.enqueue(ctx, outboxRow{kind: "create", workspace: p.workspace, note: n.ID, tab: tab, project: n.Project, title: n.Title, text: text})
	}
	for _, t := range n.Tabs {
		if t.Kind != notes.KindText || t.Text == nil {
			continue
		}
		last, queued, err := r.lastQueued(ctx, noteID, t.ID)
		if err != nil {
			return err
		}
		if !queued {
			last = copyOf.tabs[t.ID]
		}
		if *t.Text == last {
			continue
		}
		if err := r.enqueue(ctx, outboxRow{kind: "edit", workspace: p.workspace, note: n.ID, tab: t.ID, project: n.Project, text: *t.Text}); err != nil {
			return err
		}
	}
	return nil
}

// textTabs is the text of each of n's text tabs, by tab id.
func textTabs(n notes.Note) map[string]string {
	out := map[string]string{}
	for _, t := range n.Tabs {
		if t.Kind == notes.KindText && t.Text != nil {
			out[t.ID] = *t.Text
		}
	}
	return out
}

// sameText says whether every text tab of copyOf holds the same text in n.
func sameText(n, copyOf notes.Note) bool {
	have := textTabs(n)
	for id, text := range textTabs(copyOf) {
		if got, ok := have[id]; !ok || got != text {
			return false
		}
	}
	return true
}

func firstText(n notes.Note) (tab, text string) {
	for _, t := range n.Tabs {
		if t.Kind == notes.KindText && t.Text != nil {
			return t.ID, *t.Text
		}
	}
	return "", ""
}

// Sync moves the projects that waited to go Synced, sends what waits in
// the outbox, then takes in the changes of every
// workspace with a synced project. Offline it stops at the first failure
// and keeps everything for the next pass.
func (r *Replica) Sync(ctx context.Context) error {
	r.pass.Lock()
	defer r.pass.Unlock()
	if err := r.sharesOwed(ctx); err != nil {
		return err
	}
	if err := r.push(ctx); err != nil {
		return err
	}
	if err := r.pushKnowledge(ctx); err != nil {
		return err
	}
	if err := r.pushRecords(ctx); err != nil {
		return err
	}
	if err := r.pushDeletes(ctx); err != nil {
		return err
	}
	if err := r.pushChannels(ctx); err != nil {
		return err
	}
	if err := r.pushPosts(ctx); err != nil {
		return err
	}
	wss, err := r.workspaces(ctx)
	if err != nil {
		return fmt.Errorf("reading the synced projects: %w", err)
	}
	for _, ws := range wss {
		if err := r.pull(ctx, ws); err != nil {
			return err
		}
	}
	return nil
}

func (r *Replica) push(ctx context.Context) error {
	for {
		rows, err := r.pending(ctx)
		if err != nil || len(rows) == 0 {
			return err
		}
		for _, o := range rows {
			if err := r.send(ctx, o); err != nil {
				return err
			}
		}
	}
}

// send delivers one outbox row. A refusal (a project no longer shared, a
// role that no longer writes) keeps the row with its problem and goes on;
// the local text stays as it is.
func (r *Replica) send(ctx context.Context, o outboxRow) error {
	var err error
	switch o.kind {
	case "create":
		var n notes.Note
		_, err = r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(o.workspace)+"/notes",
			map[string]string{"note_id": o.note, "tab_id": o.tab, "project_id": o.project, "title": o.title, "text": o.text}, &n)
		if err == nil {
			err = r.remember(ctx, n)
		}
	case "edit":
		err = r.sendEdit(ctx, o)
	}
	var refused *APIError
	if errors.As(err, &refused) {
		_, err = r.db.ExecContext(ctx, `UPDATE team_sync_outbox SET problem = ? WHERE id = ?`, refused.Message, o.id)
		return err
	}
	if err != nil {
		return err
	}
	return r.sent(ctx, o.id)
}

func (r *Replica) sendEdit(ctx context.Context, o outboxRow) error {
	base, known, err := r.serverCopy(ctx, o.note)
	if err != nil {
		return err
	}
	if !known {
		return &APIError{Status: http.StatusConflict, Message: "the Note was never on the team server"}
	}
	var answer struct {
		Version int64      `json:"version"` // taken: the version this edit made
		Error   string     `json:"error"`   // lost: version_conflict, with the Note as it is
		Now     notes.Note `json:"note"`
	}
	code, err := r.c.Call(ctx, http.MethodPost, "/api/sync/"+url.PathEscape(o.workspace)+"/notes/"+url.PathEscape(o.note)+"/tabs/"+url.PathEscape(o.tab),
		map[string]any{"expected_version": base.version, "idempotency_key": o.idemKey, "text": o.text}, &answer)
	if err != nil {
		return err
	}
	if code == http.StatusConflict {
		return r.lostRace(ctx, o, base, answer.Now)
	}
	// The server's copy is now what this edit made; a teammate's later
	// edit comes with the next pull, as a newer version.
	base.version = answer.Version
	base.tabs[o.tab] = o.text
	return r.rememberCopy(ctx, o.note, base)
}

// lostRace keeps the person's newest text of the Note as an editor draft
// over the text it started from, drops the Note's other queued edits (the
// draft holds them), and puts the server's copy in place. A save made
// meanwhile stops the copy (take's check): the draft is then made again
// from the newer text.
func (r *Replica) lostRace(ctx context.Context, o outboxRow, base serverCopy, now notes.Note) error {
	for try := 0; ; try++ {
		mine, kept, err := r.keepDrafts(ctx, o.note, base)
		if err != nil {
			return err
		}
		if _, err := r.db.ExecContext(ctx, `DELETE FROM team_sync_outbox WHERE note_id = ? AND id <> ?`, o.note, o.id); err != nil {
			return err
		}
		err = r.take(ctx, mine.Workspace, now, textTabs(mine))
		if errors.Is(err, notes.ErrEditedHere) && try < 10 {
			continue
		}
		if err != nil {
			return err
		}
		// An open editor takes each up and shows compare / re-apply
		// against the server's copy, in place now (notes:changed announced
		// it at a version past the lost local save's).
		for _, d := range kept {
			r.c.o.Emit.Emit(EventDraft, d)
		}
		return nil
	}
}

// keepDrafts stores each text tab of the Note that differs from base as an
// editor draft over base's text.
func (r *Replica) keepDrafts(ctx context.Context, noteID string, base serverCopy) (notes.Note, []notes.Draft, error) {
	mine, err := r.notes.GetNote(ctx, noteID)
	if err != nil {
		return mine, nil, err
	}
	var kept []notes.Draft
	for _, t := range mine.Tabs {
		if t.Kind != notes.KindText || t.Text == nil || *t.Text == base.tabs[t.ID] {
			continue
		}
		draft, _ := json.Marshal(map[string]any{"kind": "text", "base": base.tabs[t.ID], "baseVersion": base.version,
			"mine": *t.Text, "savedAt": time.Now().UnixMilli()})
		if err := r.notes.PutDraft(ctx, noteID, t.ID, string(draft)); err != nil {
			return mine, nil, err
		}
		kept = append(kept, notes.Draft{OwnerID: noteID, ItemID: t.ID, Data: string(draft)})
	}
	return mine, kept, nil
}

// take puts the server's copy of a Note in place and remembers it. The
// Note's version here moves forward past every version it had (the
// server's numbers may equal or trail the local ones), so an open editor
// and the watcher hear of the team's text. holds is PutReplica's: the text
// the Note must still hold here (nil: put it whatever it holds).
func (r *Replica) take(ctx context.Context, local string, n notes.Note, holds map[string]string) error {
	r.applying.Store(n.ID, n)
	_, err := r.notes.PutReplica(ctx, local, n, holds)
	r.applying.Delete(n.ID)
	if err != nil {
		return fmt.Errorf("taking in note %s: %w", n.ID, err)
	}
	return r.remember(ctx, n)
}

// feed is teamsync.Feed as the desktop reads it.
type feed struct {
	Cursor         string                `json:"cursor"`
	More           bool                  `json:"more"`
	Held           bool                  `json:"held"`
	Notes          []notes.Note          `json:"notes"`
	KnowledgeBases []notes.KnowledgeBase `json:"knowledge_bases"`
	Articles       []notes.ArticleDoc    `json:"articles"`
	RecordChannels []notes.RecordBoard   `json:"record_channels"`
	Records        []notes.RecordItem    `json:"records"`
	Posts          []serverPost          `json:"posts"`
	Channels       []messages.Channel    `json:"channels"`
	Changes        []struct {
		Kind    string `json:"kind"`
		ID      string `json:"id"`
		Deleted bool   `json:"deleted"`
	} `json:"changes"`
}

// pull takes in ws's changes after the cursor held. A Note with edits
// still queued here is left alone: sending them decides who won.
func (r *Replica) pull(ctx context.Context, ws string) error {
	after, _, err := r.cursor(ctx, ws)
	if err != nil {
		return err
	}
	for held := 0; ; {
		var f feed
		q := url.Values{"after": {after}}.Encode()
		if _, err := r.c.Call(ctx, http.MethodGet, "/api/sync/"+url.PathEscape(ws)+"/changes?"+q, nil, &f); err != nil {
			return err
		}
		for _, n := range f.Notes {
			p, err := r.projectOf(ctx, n.Project)
			if err != nil {
				return err
			}
			if p.workspace != ws {
				continue // a project this desktop does not sync
			}
			if busy, err := r.hasPending(ctx, n.ID); err != nil || busy {
				if err != nil {
					return err
				}
				continue
			}
			c, known, err := r.serverCopy(ctx, n.ID)
			if err != nil {
				return err
			}
			if known && c.version == n.Version {
				continue // already here (our own edit coming back)
			}
			// The text last taken in must still be there (none yet: nil).
			err = r.take(ctx, p.local, n, c.tabs)
			if errors.Is(err, notes.ErrEditedHere) {
				// Saved here after the outbox was looked at: the edit goes up
				// (queued now if its own notice has not done it yet) and
				// sending it decides who won, as for any queued edit.
				err = r.queueEdit(ctx, n.ID)
			}
			if err != nil {
				return err
			}
		}
		if err := r.pullKnowledge(ctx, ws, f); err != nil {
			return err
		}
		if err := r.setCursor(ctx, ws, f.Cursor); err != nil {
			return err
		}
		after = f.Cursor
		switch {
		case f.More:
		case f.Held && held < maxHeld:
			// Announced but not readable yet (an older transaction on the
			// server still runs): it will be in a moment, and no second
			// announcement comes.
			held++
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		default:
			if f.Held {
				// Still held: no announcement will come when it is
				// readable, so the next pass comes soon, not with the
				// half-minute timer.
				time.AfterFunc(time.Second, r.poke)
			}
			return nil
		}
	}
}

// maxHeld bounds the quick re-reads of one pull (about 5 s); the next pass
// takes up what is still held.
const maxHeld = 100
