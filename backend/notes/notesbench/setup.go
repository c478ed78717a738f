// Package notesbench reproduces the reference article's experiments on the real Notes
// store: two editors racing on one Note, version scope, millisecond
// versions, creates under lost responses, and the cost of a guarded write.
// `osfoundry-bench notes` prints its tables; its tests assert the
// invariants (nothing lost with re-apply, no duplicates with keys).
package notesbench

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

const workspace = "ws-bench"

// editor is one client with its own database connection pool, as the
// reference article's race.py gives each thread its own sqlite connection.
type editor struct {
	db *sql.DB
	s  *notes.Store
	tl map[string]tools.Tool
}

func openEditor(path string, opts notes.Options) (*editor, error) {
	db, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := notes.OpenWith(db, "", opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	e := &editor{db: db, s: s, tl: map[string]tools.Tool{}}
	for _, t := range s.Tools() {
		e.tl[t.Name] = t
	}
	return e, nil
}

func (e *editor) close() { e.db.Close() }

// call runs a tool and decodes its JSON result into out (if not nil).
func (e *editor) call(ctx context.Context, tool string, args map[string]any, out any) (tools.Result, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return tools.Result{}, err
	}
	r, err := e.tl[tool].Handler(ctx, tools.Call{Workspace: workspace, Tool: tool, Args: raw})
	if err != nil {
		return r, fmt.Errorf("%s: %w", tool, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(r.Text), out); err != nil {
			return r, fmt.Errorf("%s: decoding %q: %w", tool, r.Text, err)
		}
	}
	return r, nil
}

// fixture is a fresh database with one Note: a text tab and a Sheet tab.
type fixture struct {
	path           string
	note           string
	textTab, sheet string
}

func newFixture(ctx context.Context, dir string, opts notes.Options) (fixture, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fixture{}, err
	}
	f := fixture{path: filepath.Join(dir, store.FileName)}
	e, err := openEditor(f.path, opts)
	if err != nil {
		return f, err
	}
	defer e.close()
	if _, err := e.s.CreateWorkspace(ctx, workspace, "Bench"); err != nil {
		return f, err
	}
	n, err := e.s.CreateNote(ctx, notes.NewNote{Workspace: workspace, Title: "Race", Text: "start"})
	if err != nil {
		return f, err
	}
	f.note, f.textTab = n.ID, n.Tabs[0].ID
	res, _, err := e.s.AddTabAsPerson(ctx, n.ID, n.Version, notes.KindSheet, "Sheet")
	if err != nil {
		return f, err
	}
	if !res.Saved {
		return f, fmt.Errorf("creating the sheet tab: conflict")
	}
	nn, err := e.s.GetNote(ctx, n.ID)
	if err != nil {
		return f, err
	}
	f.sheet = nn.Tabs[1].ID
	return f, nil
}
