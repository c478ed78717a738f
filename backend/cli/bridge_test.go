package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBridgeCommand(t *testing.T) {
	t.Setenv("OSFOUNDRY_HOME", t.TempDir())
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "main.go"), []byte("package main\n// TODO: ship the bridge\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- Run(&Env{Stdin: inR, Stdout: outW, Stderr: &stderr},
			[]string{"bridge", "--allow", "code_search,todo_list,read_file_typo", "--workspace", "W", "--folder", folder})
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the JSON line: %v (stderr %q)", err, stderr.String())
	}
	var got struct {
		URL   string   `json:"url"`
		Token string   `json:"token"`
		Tools []string `json:"tools"`
	}
	if err := json.Unmarshal([]byte(line), &got); err != nil || len(got.Token) != 64 || !strings.HasPrefix(got.URL, "http://127.0.0.1:") {
		t.Fatalf("line %q: %v", line, err)
	}
	if strings.Join(got.Tools, ",") != "code_search,todo_list" {
		t.Fatalf("tools = %v", got.Tools)
	}

	b := searchTodoShip(t, got.URL, got.Token)
	if !strings.Contains(string(b), `main.go`) || !strings.Contains(string(b), `ship the bridge`) {
		t.Fatalf("code_search over the bound folder: %s", b)
	}

	inW.Close() // stdin closing ends the bridge
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge kept serving after stdin closed")
	}
	u, _ := url.Parse(got.URL)
	if c, err := net.DialTimeout("tcp", u.Host, time.Second); err == nil {
		c.Close()
		t.Fatal("the listener is still open after the command returned")
	}
	if !strings.Contains(stderr.String(), "not offering read_file_typo") {
		t.Fatalf("stderr %q should name the tool it does not offer", stderr.String())
	}
}

func TestBridgeCommandErrors(t *testing.T) {
	t.Setenv("OSFOUNDRY_HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"bridge"}, 2, "--allow is required"},
		{[]string{"bridge", "--allow", "code_search", "--folder", "/does/not/exist"}, 2, "/does/not/exist"},
		{[]string{"bridge", "--allow", "code_search,execute_command"}, 1, "never offered"},
	} {
		var out, errb strings.Builder
		code := Run(&Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, c.args)
		if code != c.code || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("%v: exit %d stderr %q, want %d containing %q", c.args, code, errb.String(), c.code, c.msg)
		}
	}
}

// searchTodoShip calls code_search for "todo: ship" on the bridge at url
// and returns the response body.
func searchTodoShip(t *testing.T, url, token string) []byte {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"code_search","arguments":{"query":"todo: ship"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return b
}
