package teamclient

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/notes"
	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

// testLocalOnlyInvisibleToAssistants backs the sentence every assistant
// reads in initialize, "Local-only data is unavailable to cloud clients":
// alice's desktop syncs one project and keeps another Local-only; an
// assistant connected to the team server with the official TypeScript
// MCP SDK (OAuth through the balancer) lists, searches and reads all it
// is granted, and the Local-only project, its Note and a marker in it
// appear in none of its answers, even after the owner tries to grant it.
func testLocalOnlyInvisibleToAssistants(t *testing.T, tm *teamtest.Team) {
	node, sdk, err := connecttest.FindTSSDK(filepath.Join("..", ".."))
	if errors.Is(err, connecttest.ErrNoTSSDK) {
		t.Fatalf("%v (make deps-test installs it)", err)
	}
	must(t, err)
	// The TypeScript client trusts the balancer's throw-away CA.
	t.Setenv("NODE_EXTRA_CA_CERTS", tm.LB.CAFile)

	a := newSyncDesktop(t, tm, tm.Owner, "alice")
	var b [8]byte
	_, _ = rand.Read(b[:])
	marker := "kept-on-this-desktop-" + hex.EncodeToString(b[:])
	home, err := a.notes.CreateWorkspace(bg, "", "Personal")
	must(t, err)
	launch, err := a.notes.CreateProject(bg, home.ID, "", "Launch")
	must(t, err)
	diary, err := a.notes.CreateProject(bg, home.ID, "", "Diary")
	must(t, err)
	plan, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: launch.ID, Title: "Launch plan", Text: "- ship the beta"})
	must(t, err)
	private, err := a.notes.CreateNote(bg, notes.NewNote{Workspace: home.ID, Project: diary.ID, Title: "Launch plan, honestly " + marker, Text: "- " + marker})
	must(t, err)
	must(t, err2(a.r.ShareProject(bg, tm.Workspace, launch.ID)))
	must(t, a.r.Sync(bg))
	hidden := []string{marker, diary.ID, private.ID}

	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	ts, err := connecttest.StartTSClient(ctx, node, sdk, filepath.Join("..", "connect", "testdata", "tsclient.mjs"),
		tm.LB.URL+"/mcp", &connecttest.Browser{Base: tm.LB.URL, Client: tm.Owner.Once}, tm.Workspace, "")
	must(t, err)
	ts.Logf = t.Logf
	defer func() {
		if stderr := ts.Close(); t.Failed() {
			t.Logf("node stderr:\n%s", stderr)
		}
	}()

	// initialize carries the sentence this test backs.
	info, err := ts.Send("INFO")
	must(t, err)
	var instructions string
	if err := json.Unmarshal([]byte(strings.TrimPrefix(info, "OK ")), &instructions); err != nil || instructions != connect.Instructions ||
		!strings.Contains(instructions, "Local-only data is unavailable to cloud clients") {
		t.Fatalf("initialize instructions: %s %v", info, err)
	}

	// Every answer, with what the call sent: a value the assistant passed
	// may be echoed back; anything else Local-only must never appear.
	type answer struct{ sent, text string }
	var answers []answer
	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		text, isErr, err := ts.Raw(tool, args)
		must(t, err)
		sent, _ := json.Marshal(args)
		answers = append(answers, answer{tool + " " + string(sent), text})
		return text, isErr
	}
	// The first call signs the assistant in (consent as alice); then she
	// grants it the Synced project, and tries the Local-only one too.
	call("list_granted_resources", map[string]any{})
	var mine []connect.Connection
	must(t, tm.Owner.API("GET", tm.LB.URL+"/api/connections", nil, &mine))
	conn := ""
	for _, c := range mine {
		if strings.Contains(c.DisplayName+c.Assistant, "TypeScript SDK") {
			conn = c.ID
		}
	}
	if conn == "" {
		t.Fatalf("alice's page lists no TypeScript SDK assistant: %+v", mine)
	}
	must(t, tm.Owner.API("PUT", tm.LB.URL+"/api/connections/"+conn+"/projects/"+url.PathEscape(launch.ID), nil, nil))
	grantErr := tm.Owner.API("PUT", tm.LB.URL+"/api/connections/"+conn+"/projects/"+url.PathEscape(diary.ID), nil, nil)

	granted, _ := call("list_granted_resources", map[string]any{})
	if !strings.Contains(granted, launch.ID) {
		t.Fatalf("the Synced project is not granted: %s", granted)
	}
	all, isErr := call("list_project_resources", map[string]any{})
	if isErr || !strings.Contains(all, plan.ID) {
		t.Fatalf("the Synced project's Note is not listed: %s", all)
	}
	if found, _ := call("list_project_resources", map[string]any{"search": "Launch plan"}); !strings.Contains(found, plan.ID) {
		t.Fatalf("searching for the Synced Note: %s", found)
	}
	if found, isErr := call("list_project_resources", map[string]any{"search": marker}); isErr || strings.Contains(found, "Diary") {
		t.Errorf("searching for the Local-only Note's marker: %s", found)
	}
	if _, isErr := call("list_project_resources", map[string]any{"project_id": diary.ID}); !isErr {
		t.Error("the Local-only project's resources were listed")
	}
	tabs, isErr := call("list_note_tabs", map[string]any{"note_id": plan.ID})
	var listed struct {
		Tabs []struct {
			ID string `json:"tab_id"`
		} `json:"tabs"`
	}
	if isErr || json.Unmarshal([]byte(tabs), &listed) != nil || len(listed.Tabs) == 0 {
		t.Fatalf("the Synced Note's tabs: %s", tabs)
	}
	if text, isErr := call("read_note_tab", map[string]any{"note_id": plan.ID, "tab_id": listed.Tabs[0].ID}); isErr || !strings.Contains(text, "- ship the beta") {
		t.Fatalf("reading the Synced Note: %s", text)
	}
	if _, isErr := call("list_note_tabs", map[string]any{"note_id": private.ID}); !isErr {
		t.Error("the Local-only Note's tabs were listed")
	}

	for _, ans := range answers {
		for _, h := range hidden {
			if strings.Contains(ans.text, h) && !strings.Contains(ans.sent, h) {
				t.Errorf("the assistant was told of Local-only data (%s) by %s:\n%s", h, ans.sent, ans.text)
			}
		}
	}
	if grantErr == nil || !strings.Contains(grantErr.Error(), "no project") {
		t.Errorf("alice could grant the Local-only project: %v", grantErr)
	}
}

func err2(_ any, err error) error { return err }
