package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A tool turned off for the command line in Settings → Tool policy is
// refused by osfoundry bridge (and osfoundry run, which shares its
// executor), with where to turn it back on.
func TestBridgeCommandFollowsTheToolPolicy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("OSFOUNDRY_HOME", home)
	settings := `{"notifications": true, "channels": {"headless": {"disabled": ["code_search"]}}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir()
	if err := os.WriteFile(filepath.Join(folder, "main.go"), []byte("package main\n// TODO: ship the bridge\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- Run(&Env{Stdin: inR, Stdout: outW, Stderr: &stderr}, []string{"bridge", "--allow", "code_search", "--folder", folder})
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the JSON line: %v (stderr %q)", err, stderr.String())
	}
	var got struct {
		URL   string `json:"url"`
		Token string `json:"token"`
	}
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	b := searchTodoShip(t, got.URL, got.Token)
	if !strings.Contains(string(b), `code_search is turned off for \"headless\" runs in Settings → Tool policy`) || strings.Contains(string(b), "ship the bridge") {
		t.Fatalf("code_search turned off for the command line: %s", b)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the bridge kept serving after stdin closed")
	}
}
