package agentcli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

func TestLiveVerifyClaude(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Claude(t, srv.URL)
	v, err := runnerFor(t, e).Verify(context.Background(), Claude, VerifyOptions{})
	if err != nil || !v.SignedIn || v.Label != "✓ Signed in" || v.Detail != "ok" {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	if !slices.Contains(v.Argv, "--disallowedTools") || v.Argv[2] != VerifyPrompt {
		t.Errorf("verify did not go through the chat-mode builder: %q", v.Argv)
	}
	if n := len(srv.MainRequests()); n != 1 {
		t.Errorf("%d completions, want 1", n)
	}
}

func TestLiveVerifyClaudeNoCredentials(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Claude(t, srv.URL)
	// no apiKeyHelper and no login: what a fresh install looks like
	if err := os.WriteFile(filepath.Join(e.Home, ".claude", "settings.json"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := runnerFor(t, e).Verify(context.Background(), Claude, VerifyOptions{})
	if err != nil || v.SignedIn || v.Label != "Needs sign-in" || v.Detail == "" {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	t.Logf("detail: %s", v.Detail)
	if n := len(srv.MainRequests()); n != 0 {
		t.Errorf("a CLI without credentials reached the model %d times", n)
	}
}

func TestLiveVerifyCodex(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Codex(t, srv.URL)
	r := runnerFor(t, e)
	r.o.CodexConfig = codexFakeConfig(srv.URL)
	v, err := r.Verify(context.Background(), Codex, VerifyOptions{})
	if err != nil || !v.SignedIn || v.Label != LabelSignedIn {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	want := []string{"exec", VerifyPrompt, "--json", "--skip-git-repo-check", "--ignore-user-config", "--ignore-rules"}
	if !slices.Equal(v.Argv[1:7], want) || !slices.Equal(v.Argv[len(v.Argv)-4:], []string{"-s", "read-only", "-c", `approval_policy="never"`}) {
		t.Errorf("verify argv = %q", v.Argv)
	}
}

func TestLiveVerifyCodexNoCredentials(t *testing.T) {
	// The default OpenAI provider with an empty CODEX_HOME: no ChatGPT
	// login and no key. The base URL points at a loopback server answering
	// like the real API does to a request without credentials.
	var mu sync.Mutex
	var auths []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"Missing bearer or basic authentication in header","type":"invalid_request_error","code":null}}`)) //nolint:errcheck // client gone
	}))
	defer api.Close()
	e := agentenv.Codex(t, api.URL)
	// The person's config would choose the sandbox's provider: this is
	// someone with no config.toml.
	if err := os.Remove(filepath.Join(e.CodexHome(), "config.toml")); err != nil {
		t.Fatal(err)
	}
	r := runnerFor(t, e)
	r.o.CodexConfig = []string{`openai_base_url="` + api.URL + `/v1"`, `check_for_update_on_startup=false`}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	v, err := r.Verify(ctx, Codex, VerifyOptions{})
	if err != nil || v.SignedIn || v.Label != LabelNeedsSignIn || !strings.Contains(v.Detail, "401") {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	t.Logf("detail: %s", v.Detail)
	mu.Lock()
	defer mu.Unlock()
	if len(auths) == 0 {
		t.Fatal("Codex never asked the API, so the check proved nothing")
	}
	for _, a := range auths {
		if strings.Contains(a, "sk-") {
			t.Errorf("a key reached the model: %s", a)
		}
	}
}
