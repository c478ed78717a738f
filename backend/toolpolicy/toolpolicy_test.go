package toolpolicy

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/tools"
)

// newExecutor is the app's one executor with a read tool and a write tool.
func newExecutor(t *testing.T) (*tools.Executor, *tools.MemoryAuditor) {
	t.Helper()
	audit := &tools.MemoryAuditor{}
	e := tools.NewExecutor(tools.Options{Auditor: audit})
	for _, tl := range []tools.Tool{
		{Meta: tools.Meta{Name: "memory_search", Description: "Search notes", ReadOnly: true, Unattended: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
			Handler: func(context.Context, tools.Call) (tools.Result, error) { return tools.Result{Text: "found"}, nil }},
		{Meta: tools.Meta{Name: "todo_list", Description: "To-dos", Unattended: true, InputSchema: json.RawMessage(`{"type":"object"}`)},
			Handler: func(context.Context, tools.Call) (tools.Result, error) { return tools.Result{Text: "listed"}, nil }},
	} {
		if err := e.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	return e, audit
}

func call(e *tools.Executor, channel, tool string) tools.Result {
	res, _ := e.Execute(context.Background(), tools.Call{Workspace: "default", Channel: channel, Tool: tool, Args: json.RawMessage(`{}`)})
	return res
}

// A tool turned off for the chats' channel in Settings is refused there at
// once, with where to turn it back on; the audit records the refusal; the
// choice is saved, and the next start's executor reads it again. Forcing
// approval on an unattended run refuses it too (nobody can approve).
func TestChannelOverridesReachTheExecutorAndLast(t *testing.T) {
	dir := t.TempDir()
	store, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	exec, audit := newExecutor(t)
	b := NewBinding(store, exec)
	if got := call(exec, "pipeline", "memory_search"); got.IsError {
		t.Fatalf("before any override: %+v", got)
	}
	view, err := b.Set("pipeline", Policy{Disabled: []string{"memory_search"}, ForceApproval: []string{"todo_list"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := view.Channels[0].Policy; len(p.Disabled) != 1 || len(p.ForceApproval) != 1 {
		t.Fatalf("view after Set = %+v", view)
	}
	got := call(exec, "pipeline", "memory_search")
	if !got.IsError || !strings.Contains(got.Text, `memory_search is turned off for "pipeline" runs in Settings → Tool policy`) {
		t.Fatalf("memory_search after Off = %+v", got)
	}
	if got := call(exec, "pipeline", "todo_list"); !got.IsError || !strings.Contains(got.Text, "needs the user's approval") {
		t.Fatalf("todo_list with forced approval, unattended = %+v", got)
	}
	if got := call(exec, "headless", "memory_search"); got.IsError {
		t.Fatalf("another channel is affected: %+v", got)
	}
	es := audit.Entries()
	if es[1].Decision != tools.DecisionChannel || es[1].Channel != "pipeline" {
		t.Fatalf("audit of the refusal = %+v", es[1])
	}

	// The next start: a new store from the same folder, a new executor.
	again, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	exec2, _ := newExecutor(t)
	NewBinding(again, exec2)
	if got := call(exec2, "pipeline", "memory_search"); !got.IsError {
		t.Fatalf("after a restart the override is gone: %+v", got)
	}
	if _, err := NewBinding(again, exec2).Set("pipeline", Policy{}); err != nil {
		t.Fatal(err)
	}
	if got := call(exec2, "pipeline", "memory_search"); got.IsError {
		t.Fatalf("after clearing: %+v", got)
	}
}

// Bad input changes nothing and says what to do.
func TestBadOverridesAreRefused(t *testing.T) {
	store, err := settings.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	exec, _ := newExecutor(t)
	b := NewBinding(store, exec)
	for _, c := range []struct {
		channel string
		p       Policy
		want    string
	}{
		{"slack", Policy{Disabled: []string{"memory_search"}}, `unknown channel "slack"`},
		{"pipeline", Policy{Disabled: []string{"rm_rf"}}, `unknown tool "rm_rf"`},
		{"pipeline", Policy{Disabled: []string{"memory_search"}, ForceApproval: []string{"memory_search"}}, "both turned off and asked first"},
	} {
		if _, err := b.Set(c.channel, c.p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Set(%s, %+v) = %v; want an error containing %q", c.channel, c.p, err, c.want)
		}
	}
	if len(store.Get().Channels) != 0 {
		t.Fatalf("a refused change was saved: %+v", store.Get().Channels)
	}
	v := b.Get()
	if len(v.Tools) != 2 || v.Tools[0].Name != "memory_search" || !v.Tools[0].ReadOnly || len(v.Channels) == 0 || v.Channels[0].ID != "pipeline" {
		t.Fatalf("view = %+v", v)
	}
}
