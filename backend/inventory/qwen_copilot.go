package inventory

import (
	"bufio"
	"bytes"
	"context"
	"path/filepath"
	"strings"
)

// qwenCode reads ~/.qwen/projects/<sanitised cwd>/chats/<session id>.jsonl
// (records with uuid, sessionId, cwd, gitBranch, type user|assistant|
// tool_result|system, message {role, parts}, and custom_title system
// records) and the older Gemini-style ~/.qwen/tmp/<hash>/chats/session-*.json.
type qwenCode struct{}

func (qwenCode) Apps() []AppID { return []AppID{QwenCode} }

func (qwenCode) Roots(env Env) []string {
	q := filepath.Join(env.Home, ".qwen")
	return []string{filepath.Join(q, "projects"), filepath.Join(q, "tmp")}
}

func (q qwenCode) Units(ctx context.Context, env Env) ([]Unit, error) {
	r := q.Roots(env)
	out := chatUnits(r[0], func(n string) bool { return strings.HasSuffix(n, ".jsonl") })
	out = append(out, chatUnits(r[1], func(n string) bool {
		return strings.HasPrefix(n, "session-") && (strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".jsonl"))
	})...)
	return out, nil
}

func (qwenCode) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	if strings.Contains(filepath.ToSlash(u.Path), "/.qwen/tmp/") {
		s, ok, err := readGeminiChat(u, filepath.Join(env.Home, ".qwen"))
		if err != nil || !ok {
			return nil, err
		}
		s.App = QwenCode
		return []Session{s}, nil
	}
	f, st, err := openRegular(u.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := Session{App: QwenCode, Path: u.Path, UpdatedMs: u.MtimeNs / 1e6, Bytes: u.Size}
	s.ID = strings.TrimSuffix(filepath.Base(u.Path), ".jsonl")
	var first, title string
	err = readHead(f, HeadLines, func(line []byte) bool {
		fill(&s.Folder, strField(line, "cwd"))
		fill(&s.Branch, strField(line, "gitBranch"))
		fill(&s.Version, strField(line, "version"))
		if first == "" && strField(line, "type") == "user" && !isTrue(field(line, "isSidechain")) {
			if t := strings.TrimSpace(partsText(jpath(line, "message", "parts"))); t != "" && !strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "/") {
				first = cleanText(t, 80)
			}
		}
		return s.Folder == "" || first == ""
	})
	if err != nil {
		return nil, err
	}
	branch := ""
	_ = readTailBackward(f, st.Size(), func(line []byte) bool {
		if title == "" && strField(line, "subtype") == "custom_title" {
			title = str(jpath(line, "systemPayload", "customTitle"))
		}
		fill(&branch, strField(line, "gitBranch"))
		if s.Model == "" && strField(line, "type") == "assistant" {
			s.Model = strField(line, "model")
		}
		return title == "" || branch == "" || s.Model == ""
	})
	fill(&title, first)
	s.Title = title
	if branch != "" {
		s.Branch = branch
	}
	return []Session{s}, nil
}

func (qwenCode) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	if strings.Contains(filepath.ToSlash(s.Path), "/.qwen/tmp/") {
		return geminiTranscript(ctx, s, cursor, limit)
	}
	return readJSONLPage(ctx, s.Path, cursor, limit, func(line []byte) []Row {
		ts := strField(line, "timestamp")
		kind := RowSystem
		switch strField(line, "type") {
		case "user":
			kind = RowUser
		case "assistant":
			kind = RowAssistant
		case "tool_result":
			kind = RowToolResult
		case "system":
			if strField(line, "subtype") == "custom_title" {
				return []Row{{Kind: RowSystem, Text: "Title: " + str(jpath(line, "systemPayload", "customTitle")), Time: ts}}
			}
			return nil
		}
		var rows []Row
		eachElem(jpath(line, "message", "parts"), func(p []byte) bool {
			switch {
			case field(p, "functionCall") != nil:
				fc := field(p, "functionCall")
				r := textRow(RowToolCall, string(field(fc, "args")), ts)
				r.Name = strField(fc, "name")
				rows = append(rows, r)
			case field(p, "functionResponse") != nil:
				fr := field(p, "functionResponse")
				r := textRow(RowToolResult, string(field(fr, "response")), ts)
				r.Name = strField(fr, "name")
				rows = append(rows, r)
			case isTrue(field(p, "thought")):
				rows = append(rows, textRow(RowThinking, strField(p, "text"), ts))
			case strField(p, "text") != "":
				rows = append(rows, textRow(kind, strField(p, "text"), ts))
			}
			return true
		})
		return rows
	})
}

// yamlScalars reads top-level "key: value" lines of a small YAML file
// (plain, single- or double-quoted scalars); nested blocks are ignored.
func yamlScalars(b []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch {
		case strings.HasPrefix(v, `"`) && strings.HasSuffix(v, `"`) && len(v) >= 2:
			v = str([]byte(v))
		case strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2:
			v = strings.ReplaceAll(v[1:len(v)-1], "''", "'")
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		if v != "" && v != "|" && v != ">" {
			out[strings.TrimSpace(k)] = v
		}
	}
	return out
}
