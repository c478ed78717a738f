package roles

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/store"
)

// A database the pipeline made before this package existed already has
// the tables, with the person's choices in them: they are taken over as
// they are, not made again or emptied.
func TestTakesOverThePipelinesTables(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The pipeline component's first migration as it was.
	old := []store.Migration{{Version: 1, SQL: `
CREATE TABLE pipeline_roles (role TEXT PRIMARY KEY, model TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE pipeline_folders (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, added_at INTEGER NOT NULL);
CREATE TABLE pipeline_agents (id TEXT PRIMARY KEY, name TEXT NOT NULL, model_preference TEXT NOT NULL DEFAULT '',
	runtime_role TEXT NOT NULL DEFAULT 'Worker', instructions TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE pipeline_cli (agent TEXT PRIMARY KEY, enabled INTEGER NOT NULL);
INSERT INTO pipeline_roles VALUES ('Worker', 'cli:codex:agent', 1);
INSERT INTO pipeline_folders(path, added_at) VALUES ('` + dir + `', 1);
INSERT INTO pipeline_agents(id, name, created_at, updated_at) VALUES ('agent-1', 'Release helper', 1, 1);
INSERT INTO pipeline_cli VALUES ('claude', 0);
`}}
	if err := store.Migrate(ctx, db, "pipeline", old); err != nil {
		t.Fatal(err)
	}
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.Env{Home: dir, Path: dir}})
	s, err := New(ctx, Options{DB: db, Runner: runner})
	if err != nil {
		t.Fatalf("starting on the old database: %v", err)
	}
	defer s.Close()
	if r, err := s.RoleModel(ctx, "Worker"); err != nil || r.Model != "cli:codex:agent" {
		t.Errorf("Worker = %+v, %v; want the model picked before", r, err)
	}
	if f, err := s.CurrentFolder(ctx); err != nil || f != dir {
		t.Errorf("folder = %q, %v", f, err)
	}
	if a, err := s.GetAgent(ctx, "agent-1"); err != nil || a.Name != "Release helper" {
		t.Errorf("agent = %+v, %v", a, err)
	}
	for _, c := range s.ExternalAI(ctx) {
		if c.Agent == agentcli.Claude && c.Enabled {
			t.Error("Claude Code was turned off before and is on now")
		}
	}
}
