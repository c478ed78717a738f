// Package usagetest writes Claude Code and Codex homes with known token
// sums for the usage tests, the bench and nothing that ships.
package usagetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Request is one Claude Code assistant request.
type Request struct {
	At                  time.Time
	MsgID, ReqID, Model string
	In, Out, CW, CR     int64
	// Pad adds that many bytes of text to the record's content, as a long
	// answer does.
	Pad int
}

// ClaudeLine is an assistant record shaped like Claude Code 2.1's.
func ClaudeLine(session string, r Request) []byte {
	content := []any{map[string]any{"type": "text", "text": "Done." + pad(r.Pad)}}
	rec := map[string]any{
		"parentUuid": "p", "isSidechain": false, "type": "assistant", "uuid": fmt.Sprintf("u-%s-%s", r.MsgID, r.ReqID),
		"timestamp": r.At.UTC().Format("2006-01-02T15:04:05.000Z"), "sessionId": session, "version": "2.1.328",
		"cwd": "/work/shop", "gitBranch": "main", "userType": "external", "requestId": r.ReqID,
		"message": map[string]any{"id": r.MsgID, "model": r.Model, "role": "assistant", "type": "message",
			"content": content, "stop_reason": "end_turn",
			"usage": map[string]any{"input_tokens": r.In, "output_tokens": r.Out,
				"cache_creation_input_tokens": r.CW, "cache_read_input_tokens": r.CR, "service_tier": "standard"}},
	}
	if r.ReqID == "" {
		delete(rec, "requestId")
	}
	b, _ := json.Marshal(rec)
	return append(b, '\n')
}

// UserLine is a user record (no usage) of the same session.
func UserLine(session string, at time.Time, text string) []byte {
	b, _ := json.Marshal(map[string]any{"type": "user", "sessionId": session, "timestamp": at.UTC().Format(time.RFC3339Nano),
		"message": map[string]any{"role": "user", "content": text}})
	return append(b, '\n')
}

func pad(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return string(b)
}

// ClaudeSession is where Claude Code keeps a session of a folder.
func ClaudeSession(home, project, session string) string {
	return filepath.Join(home, ".claude", "projects", project, session+".jsonl")
}

// Append adds bytes to a file, creating it and its folders.
func Append(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("making %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Window is one Codex rate-limit window as a rollout records it.
type Window struct {
	UsedPercent   float64
	WindowMinutes int64
	ResetsAt      int64 // epoch seconds; 0 writes resets_in_seconds instead
	ResetsIn      int64
}

func (w *Window) json() any {
	if w == nil {
		return nil
	}
	m := map[string]any{"used_percent": w.UsedPercent, "window_minutes": w.WindowMinutes}
	if w.ResetsAt != 0 {
		m["resets_at"] = w.ResetsAt
	} else {
		m["resets_in_seconds"] = w.ResetsIn
	}
	return m
}

// CodexTokenCount is a token_count event shaped like Codex 0.169's, with
// the session's running total and, when given, its rate limits.
func CodexTokenCount(at time.Time, total int64, primary, secondary *Window) []byte {
	usage := map[string]any{"input_tokens": total, "cached_input_tokens": 0, "cache_write_input_tokens": 0,
		"output_tokens": 0, "reasoning_output_tokens": 0, "total_tokens": total}
	b, _ := json.Marshal(map[string]any{"timestamp": at.UTC().Format("2006-01-02T15:04:05.000Z"), "type": "event_msg",
		"payload": map[string]any{"type": "token_count",
			"info": map[string]any{"total_token_usage": usage, "last_token_usage": usage, "model_context_window": 258400},
			"rate_limits": map[string]any{"limit_id": "codex", "limit_name": nil, "primary": primary.json(), "secondary": secondary.json(),
				"credits": nil, "plan_type": "plus", "rate_limit_reached_type": nil}}})
	return append(b, '\n')
}

// CodexRollout is where Codex keeps a session started at t.
func CodexRollout(home string, t time.Time, id string) string {
	return filepath.Join(home, ".codex", "sessions", t.Format("2006"), t.Format("01"), t.Format("02"),
		"rollout-"+t.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
}
