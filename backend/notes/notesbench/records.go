package notesbench

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
)

// recordFixture is a fresh database with one Record channel (Draft,
// Review, Ready) holding the pricing page item.
type recordFixture struct {
	path, channel, item string
	version             int64
}

func newRecordFixture(ctx context.Context, dir string) (recordFixture, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return recordFixture{}, err
	}
	f := recordFixture{path: filepath.Join(dir, store.FileName)}
	e, err := openEditor(f.path, notes.Options{})
	if err != nil {
		return f, err
	}
	defer e.close()
	if _, err := e.s.CreateWorkspace(ctx, workspace, "Bench"); err != nil {
		return f, err
	}
	b, err := e.s.CreateRecordBoard(ctx, workspace, "", "Website", []string{"Draft", "Review", "Ready"})
	if err != nil {
		return f, err
	}
	it, err := e.s.AddRecord(ctx, b.ID, "Pricing page", "Review", "start")
	if err != nil {
		return f, err
	}
	f.channel, f.item, f.version = b.ID, it.ID, it.Version
	return f, nil
}

// RecordRace is the Notes race run on Records: the person saves the
// item's body in the Records editor (SaveRecordAsPerson) while an agent
// appends to it with read_record_item → edit_record_item, each with its
// own database connections, both re-reading and re-applying their line
// after a conflict. cfg's Scope, Versions, Policy and SplitTabs do not
// apply (a Record item has one version).
func RecordRace(ctx context.Context, dir string, cfg RaceConfig) (RaceResult, error) {
	f, err := newRecordFixture(ctx, dir)
	if err != nil {
		return RaceResult{}, fmt.Errorf("preparing the record race: %w", err)
	}
	agent, err := openEditor(f.path, notes.Options{})
	if err != nil {
		return RaceResult{}, err
	}
	defer agent.close()
	person, err := openEditor(f.path, notes.Options{})
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
		aerr = recordAgent(ctx, agent, f, cfg, rand.New(rand.NewSource(cfg.Seed)), &at)
	}()
	go func() {
		defer wg.Done()
		perr = recordPerson(ctx, person, f, cfg, rand.New(rand.NewSource(cfg.Seed*7919+1)), &pt)
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
	it, err := agent.s.GetRecord(ctx, f.channel, f.item)
	if err != nil {
		return res, err
	}
	res.Versions = int(it.Version - f.version)
	body, _ := it.Fields[notes.BodyField].(string)
	present := map[string]bool{}
	for _, l := range strings.Split(body, "\n") {
		present[l] = true
	}
	for i := 0; i < cfg.Edits; i++ {
		if !present[fmt.Sprintf("agent-%d", i)] {
			res.LostAgent++
		}
		if !present[fmt.Sprintf("person-%d", i)] {
			res.LostPerson++
		}
	}
	return res, nil
}

// recordAgent is the scripted model on Records: read_record_item → think →
// edit_record_item with the version it read and a fresh key per attempt.
func recordAgent(ctx context.Context, e *editor, f recordFixture, cfg RaceConfig, rng *rand.Rand, t *tally) error {
	var cur notes.RecordItem
	read := func() error {
		_, err := e.call(ctx, notes.ToolReadRecordItem, map[string]any{"record_channel_id": f.channel, "item_id": f.item}, &cur)
		return err
	}
	for i := 0; i < cfg.Edits; i++ {
		line := fmt.Sprintf("agent-%d", i)
		think(rng, cfg.AgentIdle)
		if err := read(); err != nil {
			return err
		}
		think(rng, cfg.AgentThink)
		for attempt := 1; ; attempt++ {
			body, _ := cur.Fields[notes.BodyField].(string)
			var out struct {
				Error string `json:"error"`
			}
			r, err := e.call(ctx, notes.ToolEditRecordItem, map[string]any{"record_channel_id": f.channel, "item_id": f.item,
				"expected_version": cur.Version, "idempotency_key": fmt.Sprintf("agent-%d-%d-%d", cfg.Seed, i, attempt),
				"values": map[string]any{notes.BodyField: body + "\n" + line}}, &out)
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
			if err := read(); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordPerson is the scripted person in the Records editor: conditional
// saves of the whole item, re-applied to the stored item on a conflict as
// the editor's compare / re-apply does.
func recordPerson(ctx context.Context, e *editor, f recordFixture, cfg RaceConfig, rng *rand.Rand, t *tally) error {
	for i := 0; i < cfg.Edits; i++ {
		line := fmt.Sprintf("person-%d", i)
		think(rng, cfg.PersonIdle)
		cur, err := e.s.GetRecord(ctx, f.channel, f.item)
		if err != nil {
			return err
		}
		think(rng, cfg.PersonThink)
		for attempt := 1; ; attempt++ {
			body, _ := cur.Fields[notes.BodyField].(string)
			res, err := e.s.SaveRecordAsPerson(ctx, f.channel, f.item, cur.Version,
				notes.RecordEdit{Title: cur.Title, Status: cur.Status, Body: body + "\n" + line})
			if err != nil {
				return err
			}
			if res.Saved {
				t.write(attempt)
				break
			}
			if res.Current == nil {
				return fmt.Errorf("a conflict without the stored item")
			}
			cur = *res.Current
		}
	}
	return nil
}

func recordsTable(ctx context.Context, o SuiteOptions) (Table, error) {
	t := Table{
		Title: fmt.Sprintf("Records: the person's editor and an agent's edit_record_item on one item, %d edits each, seeds 1–%d (%d intended lines)",
			o.Edits, o.Runs, 2*o.Edits*o.Runs),
		Header: []string{"protection", "on conflict", "lost", "lost agent / person", "conflicts agent / person", "max attempts", "version bumps", "target"},
	}
	rs := make([]RaceResult, o.Runs)
	errs := make([]error, o.Runs)
	var wg sync.WaitGroup
	for i := range o.Runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs[i], errs[i] = RecordRace(ctx, filepath.Join(o.Dir, fmt.Sprintf("records-%d", i+1)), RaceConfig{Seed: int64(i + 1), Edits: o.Edits,
				AgentThink: SeedAgentThink, PersonThink: SeedPersonThink, AgentIdle: SeedAgentIdle, PersonIdle: SeedPersonIdle})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return t, err
		}
	}
	s := sum(rs)
	t.Rows = append(t.Rows, []string{"item version", Reapply.String(), fmt.Sprint(s.Lost()),
		fmt.Sprintf("%d / %d", s.LostAgent, s.LostPerson), fmt.Sprintf("%d / %d", s.ConflictsAgent, s.ConflictsPerson),
		fmt.Sprint(s.MaxAttempts), fmt.Sprintf("%d of %d", s.Versions, s.Intended), "0 lost"})
	t.Note = "Same think times as the Notes race; the person saves through SaveRecordAsPerson (the Records editor), the agent through the edit_record_item handler."
	return t, nil
}
