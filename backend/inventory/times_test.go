package inventory

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// touchAll gives every file under dir the same mtime, as a copy, a backup
// restore or a sync tool does to sessions days old.
func touchAll(t *testing.T, dir string, at time.Time) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, at, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// newestRecorded is the newest time a JSONL session file records, from a
// plain full parse: top-level "timestamp" fields and Gemini's
// {"$set":{"lastUpdated"}}.
func newestRecorded(t *testing.T, p string) int64 {
	t.Helper()
	var newest int64
	eachJSONL(t, p, func(r map[string]any) {
		for _, v := range []string{sstr(r, "timestamp"), sstr(r, "$set", "lastUpdated")} {
			if ts, err := time.Parse(time.RFC3339Nano, v); err == nil && ts.UnixMilli() > newest {
				newest = ts.UnixMilli()
			}
		}
	})
	return newest
}

// Sessions from days ago whose files were touched a minute ago show the
// time they record, not the files' time.
func TestLastUsedIsTheRecordedTime(t *testing.T) {
	for _, name := range []string{"claude-headless-2.1.328.text", "claude-2.1.328", "codex-headless-0.169.0.text",
		"codex-0.169.0", "copilot-headless-1.0.102.text", "qwen-headless-0.24.4.text", "gemini-headless-0.61.0.text"} {
		t.Run(name, func(t *testing.T) {
			home := copyStore(t, name, "")
			now := time.Now().Add(-time.Minute).Truncate(time.Second)
			touchAll(t, home, now)
			svc := newTestService(t, home, nil, nil)
			refresh(t, svc)
			s := onlySession(t, svc)
			want := newestRecorded(t, s.Path)
			if want == 0 {
				t.Fatalf("%s records no time: pick a store that does", s.Path)
			}
			if dbs, _ := filepath.Glob(filepath.Join(home, ".codex", "state_*.sqlite")); len(dbs) == 1 {
				// Codex's own updated time counts too: the newer wins.
				db, err := sql.Open("sqlite", "file:"+dbs[0]+"?mode=ro")
				if err != nil {
					t.Fatal(err)
				}
				var ms int64
				if err := db.QueryRow(`SELECT updated_at_ms FROM threads WHERE id = ?`, s.ID).Scan(&ms); err == nil && ms > want {
					want = ms
				}
				db.Close()
			}
			if s.UpdatedMs != want || s.TimeFrom != TimeRecorded {
				t.Fatalf("last used %s (%s), want the recorded %s; the files say %s",
					time.UnixMilli(s.UpdatedMs).UTC(), s.TimeFrom, time.UnixMilli(want).UTC(), now.UTC())
			}
		})
	}
}

// A session that records no time at all falls back to its file's time, and
// says so.
func TestLastUsedFallsBackToTheFileTime(t *testing.T) {
	home := t.TempDir()
	id := "4c1d2e3f-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
	p := write(t, filepath.Join(home, ".claude", "projects", "-w", id+".jsonl"), jsonl(
		m{"type": "user", "cwd": "/w", "sessionId": id, "message": m{"role": "user", "content": "No times here"}},
		m{"type": "assistant", "cwd": "/w", "sessionId": id, "message": m{"role": "assistant", "model": "claude-opus-4-5", "content": "Right."}},
	))
	at := time.Date(2026, 10, 1, 9, 30, 0, 0, time.UTC)
	touch(t, p, at)
	svc := newTestService(t, home, nil, nil)
	refresh(t, svc)
	s := onlySession(t, svc)
	if s.UpdatedMs != at.UnixMilli() || s.TimeFrom != TimeFile {
		t.Fatalf("last used %s (%s), want the file's %s", time.UnixMilli(s.UpdatedMs).UTC(), s.TimeFrom, at)
	}
	d, err := svc.Detail(s.Key)
	if err != nil {
		t.Fatal(err)
	}
	if !hasField(d, "Last used", at.Local().Format(time.RFC3339)) || !hasField(d, "Time from", "the file's time: the session records none") {
		t.Fatalf("detail fields %+v", d.Fields)
	}
}
