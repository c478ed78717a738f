package notes

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/store"
	"github.com/osfoundry/desktop/backend/tools"
)

// The helper-process pattern of Go's os/exec tests: the test binary re-runs
// itself as a second program that holds the database lock or writes until
// it is killed.
const helperEnv = "OSFOUNDRY_NOTES_HELPER"

func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("helper process only")
	}
	path := os.Getenv("OSFOUNDRY_NOTES_DB")
	db, err := store.Open(path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	ctx := context.Background()
	switch mode {
	case "lock":
		conn, err := db.Conn(ctx)
		if err == nil {
			_, err = conn.ExecContext(ctx, "BEGIN EXCLUSIVE")
		}
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute) // until the parent kills us
	case "write":
		s, err := Open(db, "")
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		tl, _ := s.Tool(ToolEditNoteTab)
		pad := strings.Repeat("p", 3000) // each write spans pages
		for i := 1; ; i++ {
			n, err := s.GetNote(ctx, "note-1")
			if err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			args, _ := json.Marshal(map[string]any{"note_id": "note-1", "tab_id": n.Tabs[0].ID, "expected_version": n.Version,
				"idempotency_key": fmt.Sprintf("crash-%06d", i), "operation": OpReplaceText,
				"text": *n.Tabs[0].Text + fmt.Sprintf("\nline-%d %s", i, pad)})
			r, err := tl.Handler(ctx, tools.Call{Workspace: "ws-1", Args: args})
			if err != nil || r.IsError {
				fmt.Println("error", err, r.Text)
				os.Exit(1)
			}
			fmt.Println("ok", i)
		}
	}
	os.Exit(0)
}

func startHelper(t *testing.T, mode, path string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "OSFOUNDRY_NOTES_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewScanner(out)
}

func TestDatabaseLockedByAnotherProcess(t *testing.T) {
	f := newFixture(t, Options{})
	_, out := startHelper(t, "lock", filepath.Join(f.dir, store.FileName))
	if !out.Scan() || out.Text() != "locked" {
		t.Fatalf("helper did not lock: %q", out.Text())
	}
	// A short busy timeout on the store's writer connection (opened by the
	// fixture's writes) so the test does not wait 5 s.
	f.s.wmu.Lock()
	_, err := f.s.wconn.ExecContext(context.Background(), "PRAGMA busy_timeout = 100")
	f.s.wmu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	// WAL lets readers through while another program writes.
	if r := f.call(ToolReadNoteTab, map[string]any{"note_id": "note-1", "tab_id": f.tab}); r.IsError {
		t.Fatalf("read under another process's write lock: %s", r.Text)
	}
	tl, _ := f.s.Tool(ToolEditNoteTab)
	args, _ := json.Marshal(f.edit(1, "key-locked-01", "x"))
	_, err = tl.Handler(context.Background(), tools.Call{Workspace: "ws-1", Args: args})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "close other osFoundry") {
		t.Fatalf("write under another process's lock: %v, want ErrLocked with advice", err)
	}
	if _, err := f.s.SaveTabAsPerson(context.Background(), "note-1", f.tab, 1, "x"); !errors.Is(err, ErrLocked) {
		t.Fatalf("person save under lock: %v", err)
	}
}

func TestKilledMidWriteLeavesNoTornWrite(t *testing.T) {
	f := newFixture(t, Options{})
	path := filepath.Join(f.dir, store.FileName)
	f.s.DB().Close()
	cmd, out := startHelper(t, "write", path)
	acked := 0
	for acked < 150 && out.Scan() {
		line := out.Text()
		if !strings.HasPrefix(line, "ok ") {
			t.Fatalf("writer: %s", line)
		}
		fmt.Sscanf(line, "ok %d", &acked)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	s, err := Open(db, "")
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.GetNote(context.Background(), "note-1")
	if err != nil {
		t.Fatal(err)
	}
	// Every committed write appended exactly one line, bumped the version by
	// one and stored its key: all three must agree.
	applied := int(n.Version) - 1
	if applied < acked {
		t.Fatalf("version %d: %d acknowledged writes, only %d survived", n.Version, acked, applied)
	}
	lines := strings.Split(*n.Tabs[0].Text, "\n")
	if len(lines) != applied+1 || lines[0] != "first line" {
		t.Fatalf("text has %d lines for %d applied writes", len(lines), applied)
	}
	for i, l := range lines[1:] {
		if !strings.HasPrefix(l, fmt.Sprintf("line-%d ", i+1)) || len(l) != len(fmt.Sprintf("line-%d ", i+1))+3000 {
			t.Fatalf("line %d is torn: %.40q… (%d bytes)", i+1, l, len(l))
		}
	}
	var keys int
	if err := db.QueryRow(`SELECT COUNT(*) FROM idempotency WHERE key LIKE 'crash-%'`).Scan(&keys); err != nil || keys != applied {
		t.Fatalf("%d idempotency keys for %d applied writes (%v)", keys, applied, err)
	}
}
