package inventory

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// claudeApp reads the Claude desktop app's Code-tab records:
// <app data>/Claude/claude-code-sessions/<account>/<org>/local_<id>.json,
// each naming the Claude Code session it runs (cliSessionId), its folder and
// title. The conversation itself is that Claude Code transcript under
// ~/.claude/projects, and resuming it is `claude --resume <cliSessionId>`.
type claudeApp struct{}

func (claudeApp) Apps() []AppID { return []AppID{ClaudeApp} }

func (claudeApp) Roots(env Env) []string {
	return []string{filepath.Join(env.appSupport(), "Claude", "claude-code-sessions")}
}

func (a claudeApp) Units(ctx context.Context, env Env) ([]Unit, error) {
	var out []Unit
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		out = append(out, listFiles(dir, func(n string) bool {
			return strings.HasPrefix(n, "local_") && strings.HasSuffix(n, ".json")
		})...)
		if depth < 4 {
			for _, d := range listDirs(dir) {
				walk(d, depth+1)
			}
		}
	}
	walk(a.Roots(env)[0], 0)
	return out, nil
}

func (claudeApp) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	b := readSmall(u.Path, 4<<20)
	if b == nil {
		return nil, fmt.Errorf("reading %s: unreadable", u.Path)
	}
	s := Session{App: ClaudeApp, Bytes: u.Size, priority: 2}
	s.ID = strField(b, "sessionId")
	fill(&s.ID, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(u.Path), "local_"), ".json"))
	s.ResumeID = strField(b, "cliSessionId")
	s.Folder = strField(b, "cwd")
	s.Title = strField(b, "title")
	if s.Title == "" {
		s.Title = cleanText(strField(b, "initialMessage"), 80)
	}
	s.Model = strField(b, "model")
	s.Mode = strField(b, "permissionMode")
	s.Archived = isTrue(field(b, "isArchived")) || isTrue(field(b, "archived"))
	var recorded int64
	for _, k := range []string{"lastActivityAt", "updatedAt"} {
		if ms := timeMs(field(b, k)); ms > 0 {
			recorded = ms
			break
		}
	}
	setTime(&s, recorded, u.MtimeNs)
	if s.ResumeID != "" {
		s.Path = findClaudeTranscript(env, s.ResumeID)
		if s.Path != "" {
			if t, err := readClaudeTranscript(s.Path); err == nil {
				fill(&s.Branch, t.Branch)
				fill(&s.Model, t.Model)
				fill(&s.Effort, t.Effort)
				fill(&s.Mode, t.Mode)
				fill(&s.Folder, t.Folder)
				fill(&s.Title, t.Title)
			}
		}
	}
	return []Session{s}, nil
}

// findClaudeTranscript finds <projects root>/*/<id>.jsonl without
// decoding any folder name.
func findClaudeTranscript(env Env, id string) string {
	if !validID(id) {
		return ""
	}
	for _, d := range claudeProjectDirs(env) {
		p := filepath.Join(d, id+".jsonl")
		if _, ok := statUnit(p); ok {
			return p
		}
	}
	return ""
}

// timeMs reads a timestamp given as epoch milliseconds, epoch seconds or an
// RFC 3339 string.
func timeMs(v []byte) int64 {
	if len(v) == 0 {
		return 0
	}
	if v[0] == '"' {
		s := str(v)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05"} {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UnixMilli()
			}
		}
	}
	return epochMs(num(v))
}

// epochMs accepts seconds or milliseconds (or microseconds) since 1970.
func epochMs(n int64) int64 {
	switch {
	case n <= 0:
		return 0
	case n < 1e11:
		return n * 1000
	case n > 1e14:
		return n / 1000
	}
	return n
}

func (claudeApp) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	p := s.Path
	if p == "" || !fileExists(p) {
		p = findClaudeTranscript(env, s.ResumeID)
	}
	if p == "" {
		return Page{}, fmt.Errorf("reading transcript: no Claude Code transcript for %s (the app keeps it under ~/.claude/projects)", s.ID)
	}
	return readJSONLPage(ctx, p, cursor, limit, claudeRows)
}
