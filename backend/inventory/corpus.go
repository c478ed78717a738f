package inventory

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Benchmark corpora shaped like the seed machine: sparse Claude Code
// transcripts whose head and tail are real JSONL (the middle is a hole, so
// 19.4 GB apparent costs a few MB of disk), sub-agent transcripts, Codex
// rollouts with a state DB; and scale corpora of small sessions.

// SeedSizes returns 40 apparent sizes: total ≈19.4 GB, median 168 MB,
// p90 ≈1.94 GB, max 2.07 GB (the seed's measured figures).
func SeedSizes() []int64 {
	const mb = int64(1) << 20
	var s []int64
	for i := 0; i < 19; i++ { // small: 6 … 150 MB
		s = append(s, (6+int64(i)*8)*mb)
	}
	s = append(s, 168*mb, 168*mb)
	top := []int64{1987, 2028, 2068, 2120} // ≥ p90, max 2.07 GB
	for _, v := range top {
		s = append(s, v*mb)
	}
	// 15 between: scaled so the total is 19.4 GB.
	var fixed int64
	for _, v := range s {
		fixed += v
	}
	rest := int64(194)*(1<<30)/10 - fixed
	weights := 0
	for i := 1; i <= 15; i++ {
		weights += i
	}
	for i := 1; i <= 15; i++ {
		s = append(s, 200*mb+(rest-15*200*mb)*int64(i)/int64(weights))
	}
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

// Corpus describes a generated home.
type Corpus struct {
	Home      string
	Sessions  int
	Apparent  int64  // bytes, apparent
	Largest   string // path of the largest transcript
	LargestID string
}

func recLine(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}

// claudeHead is the first records of a transcript: title and mode records
// first, the cwd on line 6 (as measured on Claude Code 2.1.328).
func claudeHead(id, cwd, branch string, i int) []byte {
	var b []byte
	b = append(b, recLine(m2{"type": "custom-title", "customTitle": fmt.Sprintf("Session %d about checkout", i), "sessionId": id})...)
	b = append(b, recLine(m2{"type": "mode", "mode": "normal", "sessionId": id})...)
	b = append(b, recLine(m2{"type": "agent-name", "agentName": "main", "sessionId": id})...)
	b = append(b, recLine(m2{"type": "queue-operation", "operation": "enqueue", "sessionId": id})...)
	b = append(b, recLine(m2{"type": "file-history-snapshot", "messageId": "m", "snapshot": m2{}})...)
	for k := 0; k < 120; k++ {
		b = append(b, convRecord(id, cwd, branch, k)...)
	}
	return b
}

type m2 = map[string]any

// convRecord is a user or assistant record with a few KB of content.
func convRecord(id, cwd, branch string, k int) []byte {
	base := m2{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": id,
		"version": "2.1.328", "gitBranch": branch, "timestamp": "2026-11-04T10:00:00.000Z", "uuid": fmt.Sprintf("u-%d", k)}
	text := strings.Repeat("The retry path creates a second payment intent. ", 40+k%60)
	if k%2 == 0 {
		base["type"] = "user"
		base["permissionMode"] = "default"
		if k%4 == 0 {
			base["message"] = m2{"role": "user", "content": "Why does a retry charge twice? " + text}
		} else {
			base["message"] = m2{"role": "user", "content": []m2{{"type": "tool_result", "tool_use_id": "t", "content": text}}}
		}
	} else {
		base["type"] = "assistant"
		base["effort"] = "high"
		base["message"] = m2{"model": "claude-opus-4-5", "role": "assistant", "content": []m2{
			{"type": "thinking", "thinking": text[:200]}, {"type": "text", "text": text},
			{"type": "tool_use", "id": "t", "name": "Bash", "input": m2{"command": "go test ./payments/..."}}}}
	}
	return recLine(base)
}

// claudeTail is at least TailBytes of records ending with a title.
func claudeTail(id, cwd, branch string, i int) []byte {
	b := []byte{'\n'}
	for k := 0; len(b) < TailBytes+64<<10; k++ {
		b = append(b, convRecord(id, cwd, branch, 1000+k)...)
	}
	b = append(b, recLine(m2{"type": "custom-title", "customTitle": fmt.Sprintf("Fix double charge on checkout retry %d", i), "sessionId": id})...)
	return append(b, convRecord(id, cwd, branch, 1)...)
}

// writeSparse writes head at 0 and tail at size-len(tail); the middle is a hole.
func writeSparse(p string, size int64, head, tail []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	defer f.Close()
	if size < int64(len(head)+len(tail)) {
		size = int64(len(head) + len(tail))
	}
	if err := f.Truncate(size); err != nil {
		return err
	}
	if _, err := f.WriteAt(head, 0); err != nil {
		return err
	}
	_, err = f.WriteAt(tail, size-int64(len(tail)))
	return err
}

// GenerateSeedCorpus writes the seed-shaped home under dir: 40 sparse Claude
// Code transcripts, 129 sub-agent transcripts, 12 Codex threads (10
// rollouts, 2 archived) with state_5.sqlite.
func GenerateSeedCorpus(dir string) (Corpus, error) {
	c := Corpus{Home: dir}
	sizes := SeedSizes()
	projects := filepath.Join(dir, ".claude", "projects")
	for i, size := range sizes {
		id := fmt.Sprintf("c5e1a7b2-9d40-4f3e-8b16-%012d", i)
		cwd := fmt.Sprintf("/Users/alex/code/project-%02d", i%9)
		p := filepath.Join(projects, strings.ReplaceAll(cwd, "/", "-"), id+".jsonl")
		if err := writeSparse(p, size, claudeHead(id, cwd, "main", i), claudeTail(id, cwd, "fix/checkout-retry", i)); err != nil {
			return c, fmt.Errorf("writing %s: %w", p, err)
		}
		c.Apparent += size
		if p2 := p; size == sizes[len(sizes)-1] {
			c.Largest, c.LargestID = p2, id
		}
		for k := 0; k < 129/40+1 && i*4+k < 129; k++ {
			sp := filepath.Join(filepath.Dir(p), id, "subagents", fmt.Sprintf("agent-%d.jsonl", k))
			if err := writeSparse(sp, 0, claudeHead("agent", cwd, "main", k), nil); err != nil {
				return c, err
			}
		}
	}
	c.Sessions = len(sizes)
	n, err := generateCodex(dir, 12)
	c.Sessions += n
	return c, err
}

func generateCodex(dir string, n int) (int, error) {
	cx := filepath.Join(dir, ".codex")
	db, err := sql.Open("sqlite", "file:"+filepath.Join(cx, "state_5.sqlite"))
	if err := os.MkdirAll(cx, 0o755); err != nil {
		return 0, err
	}
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, rollout_path TEXT, cwd TEXT, git_branch TEXT, title TEXT, model TEXT, reasoning_effort TEXT, approval_mode TEXT, sandbox_policy TEXT, source TEXT, archived INTEGER, updated_at_ms INTEGER, originator TEXT)`); err != nil {
		return 0, fmt.Errorf("creating state DB: %w", err)
	}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("019a2f1c-7d0e-7b31-9c4e-%012d", i)
		sub := filepath.Join(cx, "sessions", "2026", "11", fmt.Sprintf("%02d", 1+i%28))
		archived := i >= n-2
		if archived {
			sub = filepath.Join(cx, "archived_sessions")
		}
		p := filepath.Join(sub, fmt.Sprintf("rollout-2026-11-04T10-00-%02d-%s.jsonl", i, id))
		var b []byte
		b = append(b, recLine(m2{"type": "session_meta", "payload": m2{"id": id, "cwd": "/Users/alex/code/shop-web", "originator": "codex_cli_rs", "cli_version": "0.169.0", "source": "cli", "git": m2{"branch": "test/checkout-e2e"}, "base_instructions": m2{"text": strings.Repeat("x", 20000)}}})...)
		b = append(b, recLine(m2{"type": "event_msg", "payload": m2{"type": "user_message", "message": "Add the checkout e2e test"}})...)
		for k := 0; k < 200; k++ {
			b = append(b, recLine(m2{"type": "response_item", "payload": m2{"type": "message", "role": "assistant", "content": []m2{{"type": "output_text", "text": strings.Repeat("checkout ", 200)}}}})...)
		}
		b = append(b, recLine(m2{"type": "turn_context", "payload": m2{"cwd": "/Users/alex/code/shop-web", "approval_policy": "on-request", "sandbox_policy": m2{"type": "workspace-write"}, "model": "gpt-5.3-codex", "effort": "high"}})...)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return 0, err
		}
		if _, err := db.Exec(`INSERT OR REPLACE INTO threads VALUES (?, ?, '/Users/alex/code/shop-web', 'test/checkout-e2e', ?, 'gpt-5.3-codex', 'high', 'on-request', 'workspace-write', 'cli', ?, ?, 'codex_cli_rs')`,
			id, p, fmt.Sprintf("Codex thread %d", i), archived, time.Now().UnixMilli()-int64(i)*60000); err != nil {
			return 0, err
		}
	}
	_, err = db.Exec(`INSERT OR REPLACE INTO threads (id, cwd, title, source) VALUES ('sub-agent-thread', '/x', 'sub', '{"subagent":"review"}')`)
	return n, err
}

// GenerateScaleCorpus writes n small Claude Code sessions (about 30 KB
// each: a real head and tail) across n/25 project folders.
func GenerateScaleCorpus(dir string, n int) (Corpus, error) {
	c := Corpus{Home: dir, Sessions: n}
	projects := filepath.Join(dir, ".claude", "projects")
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("5ca1e000-0000-4000-8000-%012d", i)
		cwd := fmt.Sprintf("/Users/alex/code/repo-%03d", i/25)
		branch := fmt.Sprintf("feature/task-%d", i)
		p := filepath.Join(projects, strings.ReplaceAll(cwd, "/", "-"), id+".jsonl")
		var b []byte
		b = append(b, recLine(m2{"type": "custom-title", "customTitle": fmt.Sprintf("Task %d: tidy module %d", i, i%97), "sessionId": id})...)
		for k := 0; k < 8; k++ {
			b = append(b, convRecord(id, cwd, branch, k)...)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return c, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return c, err
		}
		c.Apparent += int64(len(b))
	}
	return c, nil
}

// WriteDenseTranscript writes a real (non-sparse) transcript of about size
// bytes, for the naive full-parse baseline.
func WriteDenseTranscript(p string, size int64) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for k := 0; n < size; k++ {
		b := convRecord("dense", "/w", "main", k)
		n += int64(len(b))
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// NaiveFullParse is the baseline: decode every line of a transcript with
// encoding/json into generic maps, as a simple indexer would.
func NaiveFullParse(p string) (lines int, err error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var v map[string]any
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			lines++
		}
	}
	return lines, sc.Err()
}
