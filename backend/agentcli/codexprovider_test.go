package agentcli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/shellenv"
	"github.com/osfoundry/desktop/backend/testkit/agentenv"
	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

func TestReadCodexProvider(t *testing.T) {
	tests := []struct {
		name      string
		config    string // "" writes no file
		want      []string
		wantErr   string
		wantKey   string
		wantName  string
		wantNoOpt bool
	}{
		{name: "no config", wantNoOpt: true},
		{name: "the default OpenAI account", config: "model = \"gpt-5.5\"\n[mcp_servers.x]\ncommand = \"x\"\n", wantNoOpt: true},
		{name: "a company gateway", config: `model_provider = "corp"
model = "gpt-corp"
approval_policy = "on-request"
[model_providers.corp]
name = "Corp gateway"
base_url = "https://llm.corp.example/v1"
env_key = "CORP_KEY"
http_headers = { "X-Team" = "tools" }
request_max_retries = 2
[mcp_servers.mine]
command = "mine"
`, want: []string{`model_provider="corp"`, `model_providers.corp.base_url="https://llm.corp.example/v1"`, `model_providers.corp.env_key="CORP_KEY"`,
			`model_providers.corp.http_headers={X-Team="tools"}`, `model_providers.corp.name="Corp gateway"`, `model_providers.corp.request_max_retries=2`, `model="gpt-corp"`},
			wantKey: "CORP_KEY", wantName: "Corp gateway"},
		{name: "a profile's provider wins", config: `model_provider = "openai"
profile = "work"
[profiles.work]
model_provider = "azure"
[model_providers.azure]
base_url = "https://x.openai.azure.com/openai"
env_key = "AZURE_OPENAI_API_KEY"
query_params = { api-version = "2025-04-01-preview" }
`, want: []string{`model_provider="azure"`, `model_providers.azure.base_url="https://x.openai.azure.com/openai"`, `model_providers.azure.env_key="AZURE_OPENAI_API_KEY"`,
			`model_providers.azure.query_params={api-version="2025-04-01-preview"}`}, wantKey: "AZURE_OPENAI_API_KEY", wantName: "azure"},
		{name: "OpenAI through a base URL", config: "openai_base_url = \"https://proxy.corp.example/v1\"\n",
			want: []string{`model_provider="openai"`, `openai_base_url="https://proxy.corp.example/v1"`}, wantName: "openai"},
		{name: "a provider with no table", config: "model_provider = \"corp\"\n", wantErr: "no [model_providers.corp] table"},
		{name: "not TOML", config: "model_provider = \n", wantErr: "fix the file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			codexHome := t.TempDir()
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			p, err := readCodexProvider(Env{Home: t.TempDir(), Environ: []string{"CODEX_HOME=" + codexHome}})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantNoOpt {
				if p.custom() {
					t.Fatalf("overrides %q for a config that chooses no provider", p.overrides)
				}
				return
			}
			if !slices.Equal(p.overrides, tt.want) || p.EnvKey != tt.wantKey || p.Name != tt.wantName {
				t.Errorf("provider = %+v\nwant overrides %q, key %q, name %q", p, tt.want, tt.wantKey, tt.wantName)
			}
		})
	}
}

// withoutVar is env without name: the app's own environment, where a key
// exported only in ~/.bashrc is not.
func withoutVar(env []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
}

// providerRunner is a Runner over a Codex sandbox whose config.toml names
// the provider "fake" (the fake model server, key in OSF_FAKE_OPENAI_KEY):
// the key is only in the person's terminal environment, as when
// ~/.bashrc exports it; terminal nil leaves it out there too.
func providerRunner(t *testing.T, e *agentenv.Env, terminal []string) *Runner {
	t.Helper()
	return NewRunner(RunnerOptions{Env: Env{Home: e.Home, Path: pathOf(e.Env),
		Environ: withoutVar(e.Env, "OSF_FAKE_OPENAI_KEY"), Terminal: terminal}})
}

// The person's provider in their config.toml is honoured by Verify (and
// so by every Codex run: the same builder), with the key ~/.bashrc
// exports, and --ignore-user-config still keeps the rest of the file out.
func TestLiveVerifyCodexUsesThePersonsProvider(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Codex(t, srv.URL)
	// The key is exported only in ~/.bashrc: the terminal environment is
	// what the app reads from the login shell.
	sh, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	rc := "export OSF_FAKE_OPENAI_KEY=" + shellenv.GetIn(e.Env, "OSF_FAKE_OPENAI_KEY") + "\n"
	if err := os.WriteFile(filepath.Join(e.Home, ".bashrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	login, err := shellenv.Resolve(context.Background(), shellenv.Options{Shell: sh, Home: e.Home})
	if err != nil {
		t.Fatal(err)
	}
	if shellenv.GetIn(login.Environ(), "OSF_FAKE_OPENAI_KEY") != "" {
		t.Fatal("the key reached the workers' own environment: the test proves nothing")
	}
	v, err := providerRunner(t, e, login.TerminalEnviron()).Verify(context.Background(), Codex, VerifyOptions{})
	if err != nil || !v.SignedIn || v.Label != LabelSignedIn || v.Detail != "ok" {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	if n := len(srv.MainRequests()); n != 1 {
		t.Errorf("%d completions reached the person's provider, want 1", n)
	}
	for _, want := range []string{"--ignore-user-config", `model_provider="fake"`, `model_providers.fake.env_key="OSF_FAKE_OPENAI_KEY"`, `approval_policy="never"`} {
		if !slices.Contains(v.Argv, want) {
			t.Errorf("argv misses %s: %q", want, v.Argv)
		}
	}
	if strings.Contains(strings.Join(v.Argv, " "), "sk-osf-fake") {
		t.Errorf("the key is on the command line: %q", v.Argv)
	}
}

// A provider that refuses says which provider it was, not "OpenAI".
func TestLiveVerifyCodexNamesTheFailingProvider(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"message":"invalid gateway key","type":"invalid_request_error","code":null}}`)) //nolint:errcheck // client gone
	}))
	defer api.Close()
	e := agentenv.Codex(t, api.URL)
	cfg := `model_provider = "corp"
model = "` + agentenv.CodexModel + `"
[model_providers.corp]
name = "Corp gateway"
base_url = "` + api.URL + `/v1"
wire_api = "responses"
env_key = "OSF_FAKE_OPENAI_KEY"
supports_websockets = false
request_max_retries = 0
stream_max_retries = 0
`
	if err := os.WriteFile(filepath.Join(e.CodexHome(), "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := providerRunner(t, e, e.Env).Verify(context.Background(), Codex, VerifyOptions{})
	if err != nil || v.SignedIn {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	t.Logf("label %q detail %q", v.Label, v.Detail)
	if !strings.Contains(v.Detail, `Codex's provider "Corp gateway" (`+api.URL+"/v1") || !strings.Contains(v.Detail, "401") {
		t.Errorf("detail %q does not name the provider and what it answered", v.Detail)
	}
}

// A provider whose env_key is set nowhere: the check says exactly that
// and where to set it, and starts nothing.
func TestVerifyCodexMissingProviderKey(t *testing.T) {
	srv := fakemodel.Start(t, fakemodel.Text("ok"))
	e := agentenv.Codex(t, srv.URL)
	v, err := providerRunner(t, e, nil).Verify(context.Background(), Codex, VerifyOptions{})
	if err != nil || v.SignedIn || v.Label != "Missing OSF_FAKE_OPENAI_KEY" {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	for _, want := range []string{`Codex's provider "fake"`, "environment variable OSF_FAKE_OPENAI_KEY, which is not set", "~/.bashrc"} {
		if !strings.Contains(v.Detail, want) {
			t.Errorf("detail %q misses %q", v.Detail, want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the model without a key", n)
	}
}
