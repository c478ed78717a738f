package inventory

import (
	"context"
	"path/filepath"
	"strings"
)

// copilotCLI reads ~/.copilot/session-state/<id>/events.jsonl with its
// workspace.yaml (cwd, branch, summary, name), the older flat
// session-state/<id>.jsonl, and the oldest history-session-state/*.json
// (one JSON document per session: sessionId, startTime, chatMessages in the
// OpenAI chat shape, timeline). Events: session.start (context.cwd,
// context.branch), user.message, assistant.message (toolRequests),
// tool.execution_start / tool.execution_complete, session.model_change.
//
// The store is $COPILOT_HOME, else ~/.copilot; versions up to 0.0.42x put
// it under $XDG_STATE_HOME/.copilot or $XDG_CONFIG_HOME/.copilot when those
// were set, and newer ones move it back on first start, so every one of
// them that exists is read and a session found twice is listed once.
type copilotCLI struct{}

func (copilotCLI) Apps() []AppID { return []AppID{CopilotCLI} }

// copilotHomes lists the store folders that may hold sessions.
func copilotHomes(env Env) []string {
	out := []string{}
	add := func(p string) {
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	if v := env.getenv("COPILOT_HOME"); v != "" && filepath.IsAbs(v) {
		add(v)
	}
	add(filepath.Join(env.Home, ".copilot"))
	if env.goos() != "darwin" && env.goos() != "windows" {
		for _, k := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME"} {
			if v := env.getenv(k); v != "" && filepath.IsAbs(v) {
				add(filepath.Join(v, ".copilot"))
			}
		}
	}
	return out
}

func (copilotCLI) Roots(env Env) []string {
	var out []string
	for _, h := range copilotHomes(env) {
		out = append(out, filepath.Join(h, "session-state"), filepath.Join(h, "history-session-state"))
	}
	return out
}

func (copilotCLI) Units(ctx context.Context, env Env) ([]Unit, error) {
	var out []Unit
	for _, h := range copilotHomes(env) {
		root := filepath.Join(h, "session-state")
		out = append(out, listFiles(root, func(n string) bool { return strings.HasSuffix(n, ".jsonl") })...)
		for _, d := range listDirs(root) {
			if u, ok := statUnit(filepath.Join(d, "events.jsonl")); ok {
				out = append(out, u)
			}
		}
		out = append(out, listFiles(filepath.Join(h, "history-session-state"), isJSON)...)
	}
	return out, nil
}

func (copilotCLI) Merge(in []Session) []Session { return dedupe(in) }

func (copilotCLI) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	if isJSON(u.Path) {
		return readCopilotLegacy(u)
	}
	s := Session{App: CopilotCLI, Path: u.Path, Bytes: u.Size, priority: 1}
	var recorded int64
	if filepath.Base(u.Path) == "events.jsonl" {
		s.ID = filepath.Base(filepath.Dir(u.Path))
		y := yamlScalars(readSmall(filepath.Join(filepath.Dir(u.Path), "workspace.yaml"), 64<<10))
		s.Folder, s.Branch = y["cwd"], y["branch"]
		s.Title = y["name"]
		fill(&s.Title, y["summary"])
	} else {
		s.ID = strings.TrimSuffix(filepath.Base(u.Path), ".jsonl")
	}
	f, st, err := openRegular(u.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var first string
	err = readHead(f, HeadLines, func(line []byte) bool {
		d := field(line, "data")
		switch strField(line, "type") {
		case "session.start":
			fill(&s.Folder, str(jpath(d, "context", "cwd")))
			fill(&s.Branch, str(jpath(d, "context", "branch")))
			s.Version = strField(d, "copilotVersion")
		case "user.message":
			if first == "" {
				first = cleanText(strings.TrimSpace(strField(d, "content")), 80)
			}
		}
		return first == ""
	})
	if err != nil {
		return nil, err
	}
	_ = readTailBackward(f, st.Size(), func(line []byte) bool {
		recordTime(&recorded, line)
		d := field(line, "data")
		switch strField(line, "type") {
		case "session.model_change":
			s.Model = strField(d, "newModel")
		case "assistant.usage", "tool.execution_complete":
			fill(&s.Model, strField(d, "model"))
		}
		return s.Model == "" || recorded == 0
	})
	setTime(&s, recorded, u.MtimeNs)
	fill(&s.Title, first)
	return []Session{s}, nil
}

func (copilotCLI) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	if isJSON(s.Path) {
		return copilotLegacyTranscript(s, cursor, limit)
	}
	return readJSONLPage(ctx, s.Path, cursor, limit, func(line []byte) []Row {
		ts := strField(line, "timestamp")
		d := field(line, "data")
		switch strField(line, "type") {
		case "user.message":
			return []Row{textRow(RowUser, strField(d, "content"), ts)}
		case "assistant.message":
			var rows []Row
			if t := strField(d, "content"); t != "" {
				rows = append(rows, textRow(RowAssistant, t, ts))
			}
			return rows
		case "tool.execution_start":
			r := textRow(RowToolCall, string(field(d, "arguments")), ts)
			r.Name = strField(d, "toolName")
			return []Row{r}
		case "tool.execution_complete":
			res := field(d, "result")
			t := strField(res, "content")
			if t == "" {
				t = str(res)
			}
			r := textRow(RowToolResult, t, ts)
			r.IsError = string(field(d, "success")) == "false"
			return []Row{r}
		}
		return nil
	})
}

// copilotLegacyCap bounds a history-session-state document: the list reads
// the whole (pretty-printed) file, which those versions kept small.
const copilotLegacyCap = 32 << 20

func readCopilotLegacy(u Unit) ([]Session, error) {
	if u.Size > copilotLegacyCap {
		return nil, nil
	}
	b := readSmall(u.Path, copilotLegacyCap)
	s := Session{App: CopilotCLI, ID: strField(b, "sessionId"), Path: u.Path, UpdatedMs: u.MtimeNs / 1e6, Bytes: u.Size}
	if s.ID == "" {
		return nil, nil
	}
	eachElem(field(b, "chatMessages"), func(m []byte) bool {
		if strField(m, "role") != "user" {
			return true
		}
		t := strings.TrimSpace(strField(m, "content"))
		if t != "" && !strings.HasPrefix(t, "<") {
			s.Title = cleanText(t, 80)
			return false
		}
		return true
	})
	return []Session{s}, nil
}

func copilotLegacyTranscript(s Session, cursor int64, limit int) (Page, error) {
	f, st, err := openRegular(s.Path)
	if err != nil {
		return Page{}, err
	}
	f.Close()
	if st.Size() > copilotLegacyCap {
		return Page{Rows: []Row{{Kind: RowSkipped, Text: skippedText(st.Size())}}, Done: true}, nil
	}
	b := readSmall(s.Path, copilotLegacyCap)
	var rows []Row
	eachElem(field(b, "chatMessages"), func(m []byte) bool {
		t := strField(m, "content")
		switch strField(m, "role") {
		case "user":
			rows = append(rows, textRow(RowUser, t, ""))
		case "assistant":
			if t != "" {
				rows = append(rows, textRow(RowAssistant, t, ""))
			}
			eachElem(field(m, "tool_calls"), func(tc []byte) bool {
				fn := field(tc, "function")
				r := textRow(RowToolCall, strField(fn, "arguments"), "")
				r.Name = strField(fn, "name")
				rows = append(rows, r)
				return true
			})
		case "tool":
			rows = append(rows, textRow(RowToolResult, t, ""))
		}
		return true
	})
	return pageSlice(rows, cursor, limit), nil
}
