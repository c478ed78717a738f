// Package board is the Sessions board: one card per session (terminal
// panes, chats, agent runs, fleets and graphs as Team cards, loops as Loop
// cards), in the column the runtime's state puts it. Sessions come from
// Sources through one small interface; each source builds board.Card
// itself, and the board imports none of them. The user cannot set a state
// by dragging, with one exception: an idle session dropped on Done is,
// after confirmation, summarised into the knowledge folder and ended.
package board

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/cost"
)

// EventChanged carries the full card list ([]Card) after any change
// (mirrored in frontend/src/lib/events.ts).
const EventChanged = "board:changed"

// Columns, in board order. A card's State is one of them.
const (
	Running  = "running"
	NeedsYou = "needs_you"
	Paused   = "paused"
	Idle     = "idle"
	Done     = "done"
	Failed   = "failed"
)

// Columns lists the columns left to right.
var Columns = []string{Running, NeedsYou, Paused, Idle, Done, Failed}

// Kinds of session.
const (
	KindChat     = "chat"
	KindAgent    = "agent"
	KindTeam     = "team"
	KindLoop     = "loop"
	KindTerminal = "terminal"
)

// Errors of the drag rules; the first is the reference article's wording
// (docs/reference.md §1), shown as is.
var (
	ErrStillRunning = errors.New("This session is still running. Pause it first, then end it.")
	ErrEnded        = errors.New("This session has already ended.")
	ErrColumn       = errors.New("A session's column follows what it is doing. Only an idle or paused session can be moved, and only to Done.")
	ErrNoCard       = errors.New("This session is no longer on the board; it may have been closed.")
)

// Card is one session on the board.
type Card struct {
	Key       string `json:"key"`    // source/id, unique on the board
	Source    string `json:"source"` // set by the Board
	ID        string `json:"id"`     // the source's own id (pane id, chat id, …)
	Kind      string `json:"kind"`
	Title     string `json:"title"`
	Folder    string `json:"folder"` // short name
	Dir       string `json:"dir,omitempty"`
	State     string `json:"state"`             // a column
	Why       string `json:"why"`               // what the session is doing or asking, for the card
	Reason    string `json:"reason,omitempty"`  // what decided the state (tooltip)
	StartedAt int64  `json:"startedAt"`         // unix ms
	UpdatedAt int64  `json:"updatedAt"`         // unix ms of the last state change
	Link      string `json:"link,omitempty"`    // route that opens the session, e.g. "/terminal?pane=p-1"
	CanPause  bool   `json:"canPause"`          // Pause works for this session (its Source is a Pauser)
	Summary   string `json:"summary,omitempty"` // the Done summary's path, once the user ended it
	// SummaryKB and SummaryArticle name the summary's knowledge article
	// (the "Session summaries" base), once it was saved there.
	SummaryKB      string `json:"summaryKb,omitempty"`
	SummaryArticle string `json:"summaryArticle,omitempty"`
	// Branch is the pane's own branch (osf/<name>) and Added/Removed its
	// lines since the base ("" and 0 for a pane in a plain folder).
	Branch  string `json:"branch,omitempty"`
	Added   int    `json:"added,omitempty"`
	Removed int    `json:"removed,omitempty"`
	// PullRequest is the request opened for Branch from the app, nil when none.
	PullRequest *PullRequest `json:"pullRequest,omitempty"`
	// Children and ChildrenDone count a Team's or Loop's runs.
	Children     int `json:"children,omitempty"`
	ChildrenDone int `json:"childrenDone,omitempty"`
	// Cost is what a chat's, run's or job's runs cost (backend/cost's
	// rule); nil for a terminal pane, whose agent the app does not bill.
	Cost *cost.Cost `json:"cost,omitempty"`
	// Model is the model picked for the session's agent ("opus",
	// "gpt-5.6-luna"): a pane's `claude --model`/`codex -m`, a run's
	// cli:…@model. "" when the CLI runs its own default.
	Model string `json:"model,omitempty"`
}

// Source offers sessions to the board.
type Source interface {
	// Cards lists the source's sessions now (Key and Source are filled in
	// by the Board).
	Cards() []Card
	// Summary describes a session for its Done summary, with its state
	// read fresh (not a cached sweep) so a session that just started
	// working again is not ended.
	Summary(id string) (Summary, error)
	// End ends the session (closes the pane, ends the chat).
	End(id string) error
}

// Emitter sends one UI event.
type Emitter interface {
	Emit(event string, payload any)
}

// Board gathers the sources' cards and applies the drag rules.
type Board struct {
	knowledge string
	em        Emitter
	now       func() time.Time

	mu       sync.Mutex
	names    []string
	sources  map[string]Source
	pending  bool
	done     doneStore
	sessions AgentSessions
	shelf    Shelf // Done summaries as knowledge articles; nil: files only
	prs      PullRequests
}

// coalesce bounds board:changed events: several sources changing in one
// burst send one list, well within the board's one-second promise.
const coalesce = 30 * time.Millisecond

// New returns a board writing Done summaries under knowledge (the app's
// knowledge folder) and emitting to em (nil: no events).
func New(knowledge string, em Emitter) *Board {
	return &Board{knowledge: knowledge, em: em, now: time.Now, sources: map[string]Source{}, done: doneStore{recs: map[string]*record{}}}
}

// Add plugs a source in under a short name ("terminal", "pipeline").
func (b *Board) Add(name string, s Source) {
	b.mu.Lock()
	if _, ok := b.sources[name]; !ok {
		b.names = append(b.names, name)
	}
	b.sources[name] = s
	b.mu.Unlock()
	b.Changed()
}

// Cards lists every card, newest first within the board's order.
func (b *Board) Cards() []Card {
	b.mu.Lock()
	names := append([]string(nil), b.names...)
	srcs := make([]Source, len(names))
	for i, n := range names {
		srcs[i] = b.sources[n]
	}
	prs := b.prs
	b.mu.Unlock()
	out := []Card{}
	for i, s := range srcs {
		for _, c := range s.Cards() {
			c.Source = names[i]
			c.Key = names[i] + "/" + c.ID
			out = append(out, c)
		}
	}
	out = applyRecords(out, b.done.all())
	withPullRequests(out, prs)
	distinctTitles(out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartedAt > out[j].StartedAt })
	return out
}

// Changed tells the board a source's cards changed; the new list is sent
// shortly after, once per burst.
func (b *Board) Changed() {
	if b.em == nil {
		return
	}
	b.mu.Lock()
	if b.pending {
		b.mu.Unlock()
		return
	}
	b.pending = true
	b.mu.Unlock()
	time.AfterFunc(coalesce, func() {
		b.mu.Lock()
		b.pending = false
		b.mu.Unlock()
		b.em.Emit(EventChanged, b.Cards())
	})
}

// lookup finds a card as the board shows it (an ended session reads Done
// even when its source has forgotten it; a cleared one is not found).
func (b *Board) lookup(key string) (Source, Card, error) {
	name, id, ok := strings.Cut(key, "/")
	b.mu.Lock()
	s := b.sources[name]
	b.mu.Unlock()
	if !ok || s == nil {
		return nil, Card{}, ErrNoCard
	}
	r, kept := b.done.get(key)
	switch {
	case kept && r.cleared:
		return nil, Card{}, ErrNoCard
	case kept && r.endedAt > 0:
		return s, endedCard(r), nil
	}
	for _, c := range s.Cards() {
		if c.ID == id {
			c.Source, c.Key = name, key
			return s, c, nil
		}
	}
	return nil, Card{}, ErrNoCard
}

// Drop is what the UI asks when a card is dropped on a column: nil means
// "ask the user to confirm, then call End" (only an idle session on Done);
// otherwise the error says why the drop is refused. Dropping a card on its
// own column is refused with nothing to say (ErrSameColumn).
func (b *Board) Drop(key, column string) error {
	_, c, err := b.lookup(key)
	if err != nil {
		return err
	}
	return dropRule(c.State, column)
}

// ErrSameColumn: the card was dropped where it already is; nothing to do.
var ErrSameColumn = errors.New("the session is already in this column")

// dropRule is the whole drag policy: the column comes from the runtime;
// the one move a user makes is an idle (or paused) session to Done.
func dropRule(state, column string) error {
	switch {
	case state == column:
		return ErrSameColumn
	case column != Done:
		return ErrColumn
	case state == Idle || state == Paused:
		return nil
	case state == Running || state == NeedsYou:
		return ErrStillRunning
	case state == Failed || state == Done:
		return ErrEnded
	}
	return fmt.Errorf("unknown session state %q", state)
}

// End is the confirmed Idle → Done move: it re-reads the session, writes
// its summary to the knowledge folder and ends it. If the summary cannot
// be written the session is left as it was; if ending fails the summary is
// removed again, so a retry does not leave two.
func (b *Board) End(key string) (path string, err error) {
	src, c, err := b.lookup(key)
	if err != nil {
		return "", err
	}
	sum, err := src.Summary(c.ID)
	if err != nil {
		return "", fmt.Errorf("reading the session for its summary: %w", err)
	}
	if err := dropRule(sum.State, Done); err != nil {
		return "", err
	}
	sum.Kind, sum.Ended = c.Kind, b.now()
	if sum.Title == "" {
		sum.Title = c.Title
	}
	b.agentSession(&sum)
	if path, err = writeSummary(b.knowledge, sum); err != nil {
		return "", err
	}
	if err := src.End(c.ID); err != nil {
		removeSummary(path)
		return "", fmt.Errorf("ending the session: %w", err)
	}
	if sum.Title != "" {
		c.Title = sum.Title
	}
	art, shelveErr := b.shelve("", sum)
	b.completeSummary(src, c.ID, sum, path, art)
	err = b.ended(c, path, art)
	b.Changed()
	if shelveErr != nil {
		// The session has ended and its summary file is saved; only the
		// knowledge article is missing. Say so rather than hide it.
		return path, fmt.Errorf("The session ended and its summary is saved to %s, but not to %s: %w", path, SummariesBase, shelveErr)
	}
	if err != nil {
		// The session has ended and its summary is saved; only the card
		// will not outlive a restart. Say so rather than hide it.
		return path, fmt.Errorf("The session ended and its summary is saved to %s, but its Done card will not be kept after a restart: %w", path, err)
	}
	return path, nil
}

// distinctTitles makes every card's title its own: cards sharing one get
// their folder added, and those still alike a number in start order.
func distinctTitles(cards []Card) {
	for pass := 0; pass < 2; pass++ {
		groups := map[string][]int{}
		for i, c := range cards {
			groups[c.Title] = append(groups[c.Title], i)
		}
		for title, idx := range groups {
			if len(idx) < 2 {
				continue
			}
			sort.SliceStable(idx, func(a, b int) bool { return cards[idx[a]].StartedAt < cards[idx[b]].StartedAt })
			for n, i := range idx {
				switch f := cards[i].Folder; {
				case pass == 0 && f != "" && !strings.Contains(title, f):
					cards[i].Title = title + " · " + f
				case pass == 1:
					cards[i].Title = fmt.Sprintf("%s (%d)", title, n+1)
				}
			}
		}
	}
}

// Watched is a Source that says when its cards may have changed (chat's
// and orchestration's sources: the window registers the Board's Changed).
type Watched interface {
	Source
	Watch(changed func())
}
