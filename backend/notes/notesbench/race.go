package notesbench

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
)

// Policy is what an editor does after a version_conflict.
type Policy int

const (
	// Reapply re-reads the tab and appends its line to the current text.
	Reapply Policy = iota
	// RefreshOnly re-reads only the version and resends the old text (the
	// mistake the tool descriptions warn against).
	RefreshOnly
)

func (p Policy) String() string {
	if p == RefreshOnly {
		return "re-read the version, resend the old text"
	}
	return "re-read and re-apply"
}

// RaceConfig is one run of two editors on one Note.
type RaceConfig struct {
	Scope    notes.Scope
	Versions notes.VersionSource
	Policy   Policy
	Seed     int64
	Edits    int // per editor
	// Think times between read and write (uniform in [min, max]).
	AgentThink, PersonThink [2]time.Duration
	// Idle gaps before each read. The reference article's runs took 9.6–10.5 s for 100
	// edits whatever the mode, so both editors edited about every 100 ms;
	// the gap makes up the rest of that period beyond the think time.
	AgentIdle, PersonIdle [2]time.Duration
	// SplitTabs puts the agent on the text tab and the person on the Sheet
	// tab (version scope experiment); otherwise both append to the text tab.
	SplitTabs bool
}

// Seed's figures: agent thinks 20–80 ms, person 5–40 ms, 100 edits each,
// one edit per ~100 ms per editor (idle gaps average 50 ms and 77.5 ms).
var (
	SeedAgentThink  = [2]time.Duration{20 * time.Millisecond, 80 * time.Millisecond}
	SeedPersonThink = [2]time.Duration{5 * time.Millisecond, 40 * time.Millisecond}
	SeedAgentIdle   = [2]time.Duration{25 * time.Millisecond, 75 * time.Millisecond}
	SeedPersonIdle  = [2]time.Duration{55 * time.Millisecond, 100 * time.Millisecond}
)

// RaceResult counts what happened to the intended lines.
type RaceResult struct {
	Intended                        int
	LostAgent, LostPerson           int
	ConflictsAgent, ConflictsPerson int
	AgentRetried                    int // agent writes that needed a 2nd try
	AttemptsAgent, AttemptsPerson   int
	MaxAttempts                     int
	Elapsed                         time.Duration
	// Versions is how many versions the item moved on (RecordRace).
	Versions int
}

// Lost is every intended line missing at the end.
func (r RaceResult) Lost() int { return r.LostAgent + r.LostPerson }

// Add sums runs (MaxAttempts takes the max).
func (r *RaceResult) Add(o RaceResult) {
	r.Intended += o.Intended
	r.LostAgent += o.LostAgent
	r.LostPerson += o.LostPerson
	r.ConflictsAgent += o.ConflictsAgent
	r.ConflictsPerson += o.ConflictsPerson
	r.AgentRetried += o.AgentRetried
	r.AttemptsAgent += o.AttemptsAgent
	r.AttemptsPerson += o.AttemptsPerson
	r.MaxAttempts = max(r.MaxAttempts, o.MaxAttempts)
	r.Elapsed += o.Elapsed
	r.Versions += o.Versions
}

type tally struct{ conflicts, retried, attempts, maxAttempts int }

func (t *tally) write(attempts int) {
	t.attempts += attempts
	t.conflicts += attempts - 1
	if attempts > 1 {
		t.retried++
	}
	t.maxAttempts = max(t.maxAttempts, attempts)
}

// Race runs one experiment in a fresh database under dir.
func Race(ctx context.Context, dir string, cfg RaceConfig) (RaceResult, error) {
	opts := notes.Options{Scope: cfg.Scope, Versions: cfg.Versions}
	f, err := newFixture(ctx, dir, opts)
	if err != nil {
		return RaceResult{}, fmt.Errorf("preparing race: %w", err)
	}
	agent, err := openEditor(f.path, opts)
	if err != nil {
		return RaceResult{}, err
	}
	defer agent.close()
	person, err := openEditor(f.path, opts)
	if err != nil {
		return RaceResult{}, err
	}
	defer person.close()

	var at, pt tally
	var aerr, perr error
	start := time.Now()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewSource(cfg.Seed))
		aerr = runAgent(ctx, agent, f, cfg, rng, &at)
	}()
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewSource(cfg.Seed*7919 + 1))
		perr = runPerson(ctx, person, f, cfg, rng, &pt)
	}()
	wg.Wait()
	if aerr != nil {
		return RaceResult{}, fmt.Errorf("agent: %w", aerr)
	}
	if perr != nil {
		return RaceResult{}, fmt.Errorf("person: %w", perr)
	}
	res := RaceResult{Intended: 2 * cfg.Edits, Elapsed: time.Since(start),
		ConflictsAgent: at.conflicts, ConflictsPerson: pt.conflicts, AgentRetried: at.retried,
		AttemptsAgent: at.attempts, AttemptsPerson: pt.attempts, MaxAttempts: max(at.maxAttempts, pt.maxAttempts)}
	n, err := agent.s.GetNote(ctx, f.note)
	if err != nil {
		return res, err
	}
	present := map[string]bool{}
	for _, t := range n.Tabs {
		switch {
		case t.Text != nil:
			for _, l := range strings.Split(*t.Text, "\n") {
				present[l] = true
			}
		case t.Sheet != nil:
			for _, row := range t.Sheet.Sheets[0].Cells {
				for _, c := range row {
					if s, ok := c.(string); ok {
						present[s] = true
					}
				}
			}
		}
	}
	for i := 0; i < cfg.Edits; i++ {
		if !present[fmt.Sprintf("claude-%d", i)] {
			res.LostAgent++
		}
		if !present[fmt.Sprintf("human-%d", i)] {
			res.LostPerson++
		}
	}
	return res, nil
}

func think(rng *rand.Rand, span [2]time.Duration) {
	d := span[0]
	if span[1] > span[0] {
		d += time.Duration(rng.Int63n(int64(span[1] - span[0])))
	}
	if d > 0 {
		time.Sleep(d)
	}
}

type tabRead struct {
	Text       string `json:"text"`
	Version    int64  `json:"version"`
	TabVersion int64  `json:"tab_version"`
}

// runAgent is the scripted model: read_note_tab → think → edit_note_tab
// with a fresh idempotency key per attempt, as the reference article's loop does.
func runAgent(ctx context.Context, e *editor, f fixture, cfg RaceConfig, rng *rand.Rand, t *tally) error {
	read := func() (tabRead, error) {
		var r tabRead
		_, err := e.call(ctx, notes.ToolReadNoteTab, map[string]any{"note_id": f.note, "tab_id": f.textTab}, &r)
		if cfg.Scope == notes.ScopeTab {
			r.Version = r.TabVersion
		}
		return r, err
	}
	for i := 0; i < cfg.Edits; i++ {
		line := fmt.Sprintf("claude-%d", i)
		think(rng, cfg.AgentIdle)
		cur, err := read()
		if err != nil {
			return err
		}
		think(rng, cfg.AgentThink)
		text := cur.Text + "\n" + line
		for attempt := 1; ; attempt++ {
			var out struct {
				Error string `json:"error"`
			}
			r, err := e.call(ctx, notes.ToolEditNoteTab, map[string]any{"note_id": f.note, "tab_id": f.textTab,
				"expected_version": max(cur.Version, 1), "idempotency_key": fmt.Sprintf("agent-%d-%d-%d", cfg.Seed, i, attempt),
				"operation": notes.OpReplaceText, "text": text}, &out)
			if err != nil {
				return err
			}
			if !r.IsError {
				t.write(attempt)
				break
			}
			if out.Error != "version_conflict" {
				return fmt.Errorf("edit refused: %s", r.Text)
			}
			if cur, err = read(); err != nil {
				return err
			}
			if cfg.Policy == Reapply {
				text = cur.Text + "\n" + line
			}
		}
	}
	return nil
}

// runPerson is the scripted person in the editor: conditional saves of the
// whole text (or of one Sheet cell when SplitTabs).
func runPerson(ctx context.Context, e *editor, f fixture, cfg RaceConfig, rng *rand.Rand, t *tally) error {
	tabID := f.textTab
	if cfg.SplitTabs {
		tabID = f.sheet
	}
	read := func() (text string, version int64, err error) {
		n, err := e.s.GetNote(ctx, f.note)
		if err != nil {
			return "", 0, err
		}
		for _, tb := range n.Tabs {
			if tb.ID == tabID {
				v := n.Version
				if cfg.Scope == notes.ScopeTab {
					v = tb.Version
				}
				if tb.Text != nil {
					text = *tb.Text
				}
				return text, v, nil
			}
		}
		return "", 0, fmt.Errorf("tab %s vanished", tabID)
	}
	for i := 0; i < cfg.Edits; i++ {
		line := fmt.Sprintf("human-%d", i)
		think(rng, cfg.PersonIdle)
		text, v, err := read()
		if err != nil {
			return err
		}
		think(rng, cfg.PersonThink)
		content := text + "\n" + line
		for attempt := 1; ; attempt++ {
			var res notes.SaveResult
			if cfg.SplitTabs {
				res, err = e.s.SaveCellsAsPerson(ctx, f.note, tabID, v, "", i, 0, [][]any{{line}})
			} else {
				res, err = e.s.SaveTabAsPerson(ctx, f.note, tabID, v, content)
			}
			if err != nil {
				return err
			}
			if res.Saved {
				t.write(attempt)
				break
			}
			var fresh string
			if fresh, v, err = read(); err != nil {
				return err
			}
			if cfg.Policy == Reapply {
				content = fresh + "\n" + line
			}
		}
	}
	return nil
}
