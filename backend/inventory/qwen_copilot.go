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
// records) and the older Gemini-style ~/.qwen/tmp/<hash>/chats/session-*.json
// and tmp/<hash>/logs.json. $QWEN_HOME moves ~/.qwen ("~/" expanded), and
// $QWEN_RUNTIME_DIR may hold the projects and tmp folders instead.
type qwenCode struct{}

func (qwenCode) Apps() []AppID { return []AppID{QwenCode} }

func qwenBases(env Env) []string {
	base := filepath.Join(env.Home, ".qwen")
	if v := env.getenv("QWEN_HOME"); v != "" {
		switch {
		case v == "~":
			base = env.Home
		case strings.HasPrefix(v, "~/"), strings.HasPrefix(v, `~\`):
			base = filepath.Join(env.Home, v[2:])
		case filepath.IsAbs(v):
			base = v
		}
	}
	out := []string{base}
	if v := env.getenv("QWEN_RUNTIME_DIR"); v != "" && filepath.IsAbs(v) && v != base {
		out = append(out, v)
	}
	return out
}

func (qwenCode) Roots(env Env) []string {
	var out []string
	for _, b := range qwenBases(env) {
		out = append(out, filepath.Join(b, "projects"), filepath.Join(b, "tmp"))
	}
	return out
}

func (q qwenCode) Units(ctx context.Context, env Env) ([]Unit, error) {
	var out []Unit
	for _, b := range qwenBases(env) {
		out = append(out, chatUnits(filepath.Join(b, "projects"), func(n string) bool { return strings.HasSuffix(n, ".jsonl") })...)
		out = append(out, chatUnits(filepath.Join(b, "tmp"), isGeminiChat)...)
	}
	return out, nil
}

func (qwenCode) Merge(in []Session) []Session { return dedupe(in) }

// qwenGeminiStyle reports a file of the Gemini-style tmp/<hash>/ store:
// tmp/<hash>/logs.json, tmp/<hash>/checkpoint-<tag>.json or
// tmp/<hash>/chats/<file>.
func qwenGeminiStyle(p string) bool {
	d := filepath.Dir(p)
	if n := filepath.Base(p); n != "logs.json" && !isGeminiSaved(n) {
		d = filepath.Dir(d)
	}
	return filepath.Base(filepath.Dir(d)) == "tmp"
}

func (qwenCode) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	if qwenGeminiStyle(u.Path) {
		base := filepath.Dir(filepath.Dir(filepath.Dir(u.Path)))
		if n := filepath.Base(u.Path); n != "logs.json" && !isGeminiSaved(n) {
			base = filepath.Dir(base)
		}
		ss, err := readGeminiUnit(u, base, env.Home)
		for i := range ss {
			ss[i].App = QwenCode
		}
		return ss, err
	}
	f, st, err := openRegular(u.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := Session{App: QwenCode, Path: u.Path, Bytes: u.Size, priority: 2}
	var recorded int64
	s.ID = strings.TrimSuffix(filepath.Base(u.Path), ".jsonl")
	var first, title string
	err = readHead(f, HeadLines, func(line []byte) bool {
		fill(&s.Folder, strField(line, "cwd"))
		fill(&s.Branch, strField(line, "gitBranch"))
		fill(&s.Version, strField(line, "version"))
		if first == "" && strField(line, "type") == "user" && !isTrue(field(line, "isSidechain")) {
			first = promptTitle(partsText(jpath(line, "message", "parts")))
		}
		return s.Folder == "" || first == ""
	})
	if err != nil {
		return nil, err
	}
	branch := ""
	_ = readTailBackward(f, st.Size(), func(line []byte) bool {
		recordTime(&recorded, line)
		if title == "" && strField(line, "subtype") == "custom_title" {
			title = str(jpath(line, "systemPayload", "customTitle"))
		}
		fill(&branch, strField(line, "gitBranch"))
		if s.Model == "" && strField(line, "type") == "assistant" {
			s.Model = strField(line, "model")
		}
		return title == "" || branch == "" || s.Model == "" || recorded == 0
	})
	setTime(&s, recorded, u.MtimeNs)
	fill(&title, first)
	s.Title = title
	if branch != "" {
		s.Branch = branch
	}
	return []Session{s}, nil
}

func (qwenCode) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	p := s.Path
	if lp, _, ok := geminiLogsSession(s); ok {
		p = lp
	}
	if qwenGeminiStyle(p) {
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
