package tools_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

type noMemory struct{}

func (noMemory) MemorySearch(context.Context, string, string, int) ([]tools.MemoryHit, error) {
	return nil, nil
}

// TestDefaultToolsAreReal: every tool a role's bridge offers by default is
// registered by the app's own services, so none is dropped in silence; a
// tool the catalogue does not offer is not on the list.
func TestDefaultToolsAreReal(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	todos, err := tools.NewTodos(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	e := tools.NewExecutor(tools.Options{})
	if err := tools.RegisterBuiltins(e, tools.Deps{Memory: noMemory{}, Todos: todos}); err != nil {
		t.Fatal(err)
	}
	var registered []string
	for _, m := range e.Tools() {
		registered = append(registered, m.Name)
	}
	for _, name := range roles.DefaultTools {
		if !slices.Contains(registered, name) {
			t.Errorf("the default worker tools name %s, which the app never registers (registered: %v)", name, registered)
		}
	}
	if !slices.Equal(roles.DefaultTools, tools.DefaultBridge()) {
		t.Errorf("roles.DefaultTools %v differ from the catalogue's defaults %v", roles.DefaultTools, tools.DefaultBridge())
	}
	seen := map[string]bool{}
	for _, c := range tools.Catalogue() {
		seen[c.Name] = true
		if c.Offered != (len(c.Tools) > 0) || c.Note == "" || c.Default && !c.Offered {
			t.Errorf("catalogue row %+v: an offered row names its tools, a row not offered none; every row says why", c)
		}
	}
	for _, want := range []string{"memory_search", "web_search", "extract_content", "code_search", "todo_list", "transcribe",
		"cloud_* read tools", "spawn_fleet, graph_run, loop_run", "live screen (ui_agent_act)", "Canvas tools",
		"read_file, write_file, execute_command"} {
		if !seen[want] {
			t.Errorf("the catalogue lacks the articles' %s", want)
		}
	}
}
