package tools

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/store"
)

func run(t *testing.T, tl Tool, c Call, args string) Result {
	t.Helper()
	c.Args = json.RawMessage(args)
	res, err := tl.Handler(context.Background(), c)
	if err != nil {
		t.Fatalf("%s(%s): %v", tl.Name, args, err)
	}
	return res
}

func TestSQLAuditAndTodos(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "app.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	audit, err := NewSQLAuditor(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	todos, err := NewTodos(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	// Migrations are idempotent: a second open changes nothing.
	if _, err := NewSQLAuditor(ctx, db); err != nil {
		t.Fatal(err)
	}

	a, _ := todos.Add(ctx, "w1", "write the release notes")
	b, _ := todos.Add(ctx, "w1", "tag v1.0")
	if _, err := todos.Add(ctx, "w2", "other workspace item"); err != nil {
		t.Fatal(err)
	}
	if _, err := todos.Add(ctx, "w1", "   "); err == nil {
		t.Fatal("empty to-do accepted")
	}
	if err := todos.Complete(ctx, "w1", a.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := todos.Complete(ctx, "w2", b.ID, true); err == nil {
		t.Fatal("completed an item through another workspace")
	}

	e := NewExecutor(Options{Auditor: audit})
	if err := RegisterBuiltins(e, Deps{Todos: todos}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args, want, not string }{
		{`{}`, "tag v1.0", "release notes"},
		{`{"status":"done"}`, "release notes", "tag v1.0"},
		{`{"status":"all","workspace":"w2"}`, "release notes", "other workspace"},
		{`{"status":"later"}`, "unknown status", ""},
	} {
		res, err := e.Execute(ctx, Call{Workspace: "w1", Tool: "todo_list", Args: json.RawMessage(c.args), Source: "test"})
		if err != nil || !strings.Contains(res.Text, c.want) || (c.not != "" && strings.Contains(res.Text, c.not)) {
			t.Fatalf("todo_list %s = %q %v; want %q without %q", c.args, res.Text, err, c.want, c.not)
		}
	}
	es, err := audit.List(ctx, AuditQuery{Workspace: "w1", Tool: "todo_list"})
	if err != nil || len(es) != 4 {
		t.Fatalf("audit list: %d entries, %v", len(es), err)
	}
	if es[0].Args == nil || string(es[0].Args) != `{"status":"later"}` || es[0].Decision != DecisionRan || es[0].Detail == "" || es[0].At.IsZero() {
		t.Fatalf("newest audit entry = %+v", es[0])
	}
	if none, _ := audit.List(ctx, AuditQuery{Workspace: "w2"}); len(none) != 0 {
		t.Fatalf("audit leaked across workspaces: %+v", none)
	}
}

func TestBuiltinsOnlyWhatIsConfigured(t *testing.T) {
	e := NewExecutor(Options{})
	if err := RegisterBuiltins(e, Deps{}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range e.Tools() {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "code_search,extract_content" {
		t.Fatalf("with no services: %v, want only the folder tools", names)
	}
	if err := RegisterBuiltins(NewExecutor(Options{}), Deps{Panes: &fakePanes{}}); err == nil {
		t.Fatal("live-screen tools registered without a blocked-screen detector")
	}
}

func TestCodeSearch(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("src/a.go", "package a\nfunc HandleBridge() {}\n")
	write("src/b.ts", "export const handleBridge = 1\n")
	write(".git/config", "HandleBridge in git internals\n")
	write("node_modules/x/index.js", "HandleBridge vendored\n")
	write("bin/blob", "HandleBridge\x00\x01binary")
	write("big.txt", strings.Repeat("HandleBridge filler line\n", (2<<20)/24+10))
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.go"), []byte("HandleBridge secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	tl := CodeSearchTool()

	cases := []struct {
		name, args string
		want       []string // paths expected, in order
		errHas     string
	}{
		{"case-insensitive literal", `{"query":"handlebridge"}`, []string{"src/a.go", "src/b.ts"}, ""},
		{"case-sensitive", `{"query":"HandleBridge","case_sensitive":true}`, []string{"src/a.go"}, ""},
		{"regex", `{"query":"func \\w+Bridge","regex":true}`, []string{"src/a.go"}, ""},
		{"glob", `{"query":"bridge","glob":"*.ts"}`, []string{"src/b.ts"}, ""},
		{"limit", `{"query":"bridge","limit":1}`, []string{"src/a.go"}, ""},
		{"bad regex", `{"query":"(","regex":true}`, nil, "invalid regular expression"},
		{"empty query", `{"query":""}`, nil, "query must be"},
		{"folder in args is ignored", `{"query":"secret","folder":"` + outside + `"}`, []string{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, tl, Call{Folder: root}, c.args)
			if c.errHas != "" {
				if !res.IsError || !strings.Contains(res.Text, c.errHas) {
					t.Fatalf("got %q, want error containing %q", res.Text, c.errHas)
				}
				return
			}
			var out struct {
				Matches []CodeMatch `json:"matches"`
			}
			if err := json.Unmarshal([]byte(res.Text), &out); err != nil {
				t.Fatalf("%q: %v", res.Text, err)
			}
			var paths []string
			for _, m := range out.Matches {
				paths = append(paths, m.Path)
			}
			if strings.Join(paths, ",") != strings.Join(c.want, ",") {
				t.Fatalf("paths = %v, want %v", paths, c.want)
			}
		})
	}
	if res := run(t, tl, Call{}, `{"query":"x"}`); !res.IsError || !strings.Contains(res.Text, "no folder") {
		t.Fatalf("no folder: %q", res.Text)
	}
}

func TestExtractContent(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "notes.md"), []byte("# Plan\n\nShip it.\n"), 0o600)
	os.WriteFile(filepath.Join(root, "page.html"), []byte(`<html><head><title>x</title><style>p{}</style></head><body><p>Hello &amp; welcome</p><script>alert(1)</script><div>Second</div></body></html>`), 0o600)
	os.WriteFile(filepath.Join(root, "img.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00"), 0o600)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("secret"), 0o600)
	os.Symlink(outside, filepath.Join(root, "escape.txt"))

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<h1>Remote</h1><p>page body</p>"))
	}))
	defer srv.Close()

	offline := ExtractContentTool(nil)
	guarded := ExtractContentTool(NewWebClient())
	open := ExtractContentTool(srv.Client())
	cases := []struct {
		name   string
		tool   Tool
		source string
		want   string
		isErr  bool
		not    string
	}{
		{"markdown", offline, "notes.md", "Ship it.", false, ""},
		{"html to text", offline, "page.html", "Hello & welcome", false, "alert"},
		{"binary refused", offline, "img.png", "binary file", true, ""},
		{"parent escape", offline, "../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt", "", true, "secret\""},
		{"absolute outside", offline, outside, "outside the run's folder", true, ""},
		{"symlink outside", offline, "escape.txt", "outside the run's folder", true, ""},
		{"missing", offline, "nope.txt", "no such file", true, ""},
		{"url offline", offline, srv.URL, "network access is off", true, ""},
		{"url to loopback refused", guarded, srv.URL, "loopback, private or link-local", true, ""},
		{"url fetched", open, srv.URL, "Remote", false, "<h1>"},
		{"file scheme", open, "file:///etc/passwd", "only http and https", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"source": c.source})
			res := run(t, c.tool, Call{Folder: root}, string(args))
			if res.IsError != c.isErr || !strings.Contains(res.Text, c.want) || (c.not != "" && strings.Contains(res.Text, c.not)) {
				t.Fatalf("got %q (isError %v), want %q (isError %v) without %q", res.Text, res.IsError, c.want, c.isErr, c.not)
			}
		})
	}
}
