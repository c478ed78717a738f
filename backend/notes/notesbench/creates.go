package notesbench

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/tools"
)

// CreateResult counts a run of creates under lost responses.
type CreateResult struct {
	Calls, Created, Duplicates int
}

// Creates asks for n Sheet tabs with create_note_tab while dropRate of the
// responses are lost (the call ran, the client never heard back), so the
// client retries like a host after a timeout: re-read the version, call
// again. With sameKey the retry reuses the intended write's key; without,
// every attempt has a fresh key (as if there were none).
func Creates(ctx context.Context, dir string, seed int64, n int, dropRate float64, sameKey bool) (CreateResult, error) {
	f, err := newFixture(ctx, dir, notes.Options{})
	if err != nil {
		return CreateResult{}, err
	}
	e, err := openEditor(f.path, notes.Options{})
	if err != nil {
		return CreateResult{}, err
	}
	defer e.close()
	rng := rand.New(rand.NewSource(seed))
	var res CreateResult
	for i := 0; i < n; i++ {
		key := fmt.Sprintf("create-%d-%d", seed, i)
		for attempt := 1; ; attempt++ {
			var list struct {
				Version int64 `json:"version"`
			}
			if _, err := e.call(ctx, notes.ToolListNoteTabs, map[string]any{"note_id": f.note}, &list); err != nil {
				return res, err
			}
			if !sameKey {
				key = fmt.Sprintf("create-%d-%d-%d", seed, i, attempt)
			}
			r, err := e.call(ctx, notes.ToolCreateNoteTab, map[string]any{"note_id": f.note, "expected_version": list.Version,
				"idempotency_key": key, "kind": notes.KindSheet, "title": fmt.Sprintf("Sheet %d", i)}, nil)
			if err != nil {
				return res, err
			}
			res.Calls++
			if r.IsError {
				return res, fmt.Errorf("create refused: %s", r.Text)
			}
			if rng.Float64() >= dropRate {
				break // the client got the response
			}
		}
	}
	note, err := e.s.GetNote(ctx, f.note)
	if err != nil {
		return res, err
	}
	for _, t := range note.Tabs {
		if t.Kind == notes.KindSheet && strings.HasPrefix(t.Title, "Sheet ") {
			res.Created++
		}
	}
	res.Duplicates = res.Created - n
	return res, nil
}

// CostResult is the per-call latency of guarded edit_note_tab calls.
type CostResult struct {
	Calls    int
	P50, P99 time.Duration
}

// WriteCost times calls sequential edit_note_tab calls with a 200-character
// replace_text under scope (the reference article's bench.py). The time covers the whole
// tool call: argument validation, the transaction and the JSON result.
func WriteCost(ctx context.Context, dir string, scope notes.Scope, calls int) (CostResult, error) {
	opts := notes.Options{Scope: scope}
	f, err := newFixture(ctx, dir, opts)
	if err != nil {
		return CostResult{}, err
	}
	e, err := openEditor(f.path, opts)
	if err != nil {
		return CostResult{}, err
	}
	defer e.close()
	var cur struct {
		Version    int64 `json:"version"`
		TabVersion int64 `json:"tab_version"`
	}
	if _, err := e.call(ctx, notes.ToolReadNoteTab, map[string]any{"note_id": f.note, "tab_id": f.textTab}, &cur); err != nil {
		return CostResult{}, err
	}
	h := e.tl[notes.ToolEditNoteTab].Handler
	lat := make([]time.Duration, 0, calls)
	for i := 0; i < calls; i++ {
		v := cur.Version
		if scope == notes.ScopeTab {
			v = cur.TabVersion
		}
		text := fmt.Sprintf("%06d ", i) + strings.Repeat("x", 193)
		raw, _ := json.Marshal(map[string]any{"note_id": f.note, "tab_id": f.textTab, "expected_version": v,
			"idempotency_key": fmt.Sprintf("cost-%s-%06d", scope, i), "operation": notes.OpReplaceText, "text": text})
		c := tools.Call{Workspace: workspace, Tool: notes.ToolEditNoteTab, Args: raw}
		t0 := time.Now()
		r, err := h(ctx, c)
		lat = append(lat, time.Since(t0))
		if err != nil {
			return CostResult{}, err
		}
		if r.IsError {
			return CostResult{}, fmt.Errorf("write %d refused: %s", i, r.Text)
		}
		if err := json.Unmarshal([]byte(r.Text), &cur); err != nil {
			return CostResult{}, err
		}
	}
	slices.Sort(lat)
	return CostResult{Calls: calls, P50: lat[len(lat)/2], P99: lat[len(lat)*99/100]}, nil
}
