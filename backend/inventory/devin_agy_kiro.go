package inventory

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// devinCLI reads Devin's local store: <data>/devin/cli/sessions.db
// (~/.local/share on Linux, ~/Library/Application Support on macOS,
// %APPDATA% on Windows), table sessions (id, working_directory, model,
// agent_mode, title, last_activity_at, hidden) and message_nodes
// (session_id, chat_message JSON). credentials.toml beside it is never read.
type devinCLI struct{}

func (devinCLI) Apps() []AppID { return []AppID{Devin} }

func devinDB(env Env) string {
	base := env.dataHome()
	if g := env.goos(); g == "darwin" || g == "windows" {
		base = env.appSupport()
	}
	return filepath.Join(base, "devin", "cli", "sessions.db")
}

func (devinCLI) Roots(env Env) []string { return []string{filepath.Dir(devinDB(env))} }

func (devinCLI) Units(ctx context.Context, env Env) ([]Unit, error) {
	if u, ok := statUnit(devinDB(env)); ok {
		return []Unit{u}, nil
	}
	return nil, nil
}

func (devinCLI) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	db, err := openImmutable(u.Path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	cols, err := columns(ctx, db, "sessions")
	if err != nil || !cols["id"] {
		return nil, fmt.Errorf("reading %s: no sessions table (%v)", u.Path, err)
	}
	rows, err := queryText(ctx, db, "SELECT "+sel(cols, "id", "working_directory|cwd", "title", "model", "agent_mode",
		"last_activity_at|updated_at", "created_at", "hidden")+" FROM sessions")
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u.Path, err)
	}
	var out []Session
	for _, r := range rows {
		if r[7] == "1" || r[7] == "true" {
			continue
		}
		s := Session{App: Devin, ID: r[0], Folder: r[1], Title: r[2], Model: r[3], Mode: r[4],
			UpdatedMs: timeMs([]byte(quoteIfText(r[5]))), Path: u.Path + "#" + r[0]}
		if s.UpdatedMs == 0 {
			s.UpdatedMs = timeMs([]byte(quoteIfText(r[6])))
		}
		out = append(out, s)
	}
	return out, nil
}

// quoteIfText makes a column value parseable by timeMs (numbers stay bare).
func quoteIfText(v string) string {
	if v == "" {
		return ""
	}
	if num([]byte(v)) != 0 {
		return v
	}
	return `"` + strings.ReplaceAll(v, `"`, ``) + `"`
}

func (devinCLI) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	dbPath, id, _ := strings.Cut(s.Path, "#")
	db, err := openImmutable(dbPath)
	if err != nil {
		return Page{}, err
	}
	defer db.Close()
	msgs, err := queryText(ctx, db, "SELECT chat_message FROM message_nodes WHERE session_id = ? ORDER BY created_at, row_id", id)
	if err != nil {
		return Page{}, fmt.Errorf("reading messages: %w", err)
	}
	var rows []Row
	for _, m := range msgs {
		b := []byte(m[0])
		kind := RowAssistant
		switch strField(b, "role") {
		case "user":
			kind = RowUser
		case "tool":
			kind = RowToolResult
		}
		t := blocksText(field(b, "content"))
		if t == "" {
			t = strField(b, "text")
		}
		if t != "" {
			rows = append(rows, textRow(kind, t, ""))
		}
		eachElem(field(b, "tool_calls"), func(tc []byte) bool {
			r := textRow(RowToolCall, str(jpath(tc, "function", "arguments")), "")
			r.Name = str(jpath(tc, "function", "name"))
			rows = append(rows, r)
			return true
		})
	}
	return pageSlice(rows, cursor, limit), nil
}

// antigravityStore reads ~/.gemini/antigravity-cli/conversation_summaries.db:
// one row per conversation of the Antigravity CLI and IDE (id, title,
// preview, step_count, last_modified_time, last_user_input_time,
// workspace_uris). The conversations themselves are protobuf blobs
// (conversations/<id>.db, the IDE's .pb files) with no published schema;
// the pane shows the CLI's plain transcript when one exists.
type antigravityStore struct{}

func (antigravityStore) Apps() []AppID { return []AppID{Antigravity} }

func agyDir(env Env) string { return filepath.Join(env.Home, ".gemini", "antigravity-cli") }

func (antigravityStore) Roots(env Env) []string { return []string{agyDir(env)} }

func (antigravityStore) Units(ctx context.Context, env Env) ([]Unit, error) {
	if u, ok := statUnit(filepath.Join(agyDir(env), "conversation_summaries.db")); ok {
		return []Unit{u}, nil
	}
	return nil, nil
}

func (antigravityStore) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	db, err := openImmutable(u.Path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tables, err := queryText(ctx, db, "SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u.Path, err)
	}
	for _, t := range tables {
		cols, err := columns(ctx, db, t[0])
		if err != nil || !cols["id"] || !cols["title"] {
			continue
		}
		rows, err := queryText(ctx, db, "SELECT "+sel(cols, "id", "title", "preview", "last_user_input_time", "last_modified_time", "workspace_uris")+` FROM "`+strings.ReplaceAll(t[0], `"`, `""`)+`"`)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", u.Path, err)
		}
		var out []Session
		for _, r := range rows {
			s := Session{App: Antigravity, ID: r[0], Title: r[1], Path: u.Path + "#" + r[0]}
			fill(&s.Title, cleanText(r[2], 80))
			s.UpdatedMs = timeMs([]byte(quoteIfText(r[3])))
			if m := timeMs([]byte(quoteIfText(r[4]))); m > s.UpdatedMs {
				s.UpdatedMs = m
			}
			ws := strings.TrimSpace(r[5])
			if strings.HasPrefix(ws, "[") {
				eachElem([]byte(ws), func(v []byte) bool { ws = str(v); return false })
			} else if i := strings.IndexAny(ws, ",\n"); i >= 0 {
				ws = ws[:i]
			}
			s.Folder = fileURIPath(ws)
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("reading %s: no conversation table", u.Path)
}

func (antigravityStore) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	p := filepath.Join(agyDir(env), "brain", s.ID, ".system_generated", "logs", "transcript_full.jsonl")
	if !validID(s.ID) || !fileExists(p) {
		return Page{Rows: []Row{{Kind: RowSystem, Text: "Antigravity keeps this conversation in its own format; open it in Antigravity to read it."}}, Done: true}, nil
	}
	return readJSONLPage(ctx, p, cursor, limit, func(line []byte) []Row {
		kind := RowAssistant
		src := strings.ToLower(strField(line, "source") + " " + strField(line, "type"))
		switch {
		case strings.Contains(src, "user"):
			kind = RowUser
		case strings.Contains(src, "tool"):
			kind = RowToolCall
		}
		return []Row{textRow(kind, blocksText(field(line, "content")), strField(line, "created_at"))}
	})
}

// kiroStore reads Kiro CLI's three stores: <data>/kiro-cli/data.sqlite3
// table conversations_v2 (key = folder, value = conversation JSON; the
// auth_kv table beside it is never queried), ~/.kiro/sessions/cli/<id>.json
// with <id>.jsonl, and ~/.kiro/sessions/<workspace>/sess_<id>/session.json
// with messages.jsonl.
type kiroStore struct{}

func (kiroStore) Apps() []AppID { return []AppID{Kiro} }

func kiroDB(env Env) string {
	base := env.dataHome()
	if env.goos() == "darwin" {
		base = env.appSupport()
	}
	return filepath.Join(base, "kiro-cli", "data.sqlite3")
}

func (kiroStore) Roots(env Env) []string {
	return []string{filepath.Dir(kiroDB(env)), filepath.Join(env.Home, ".kiro", "sessions")}
}

func (kiroStore) Units(ctx context.Context, env Env) ([]Unit, error) {
	var out []Unit
	if u, ok := statUnit(kiroDB(env)); ok {
		out = append(out, u)
	}
	root := filepath.Join(env.Home, ".kiro", "sessions")
	out = append(out, listFiles(filepath.Join(root, "cli"), func(n string) bool { return strings.HasSuffix(n, ".json") })...)
	for _, ws := range listDirs(root) {
		for _, d := range listDirs(ws) {
			if strings.HasPrefix(filepath.Base(d), "sess_") {
				if u, ok := statUnit(filepath.Join(d, "session.json")); ok {
					out = append(out, u)
				}
			}
		}
	}
	return out, nil
}

func (kiroStore) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	if strings.HasSuffix(u.Path, ".sqlite3") {
		db, err := openImmutable(u.Path)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		const j = "CASE WHEN json_valid(value) THEN json_extract(value, '%s') END"
		rows, err := queryText(ctx, db, "SELECT conversation_id, key, updated_at, "+fmt.Sprintf(j, "$.history[0].user.content.Prompt.prompt")+", "+
			fmt.Sprintf(j, "$.model_info.model_id")+" FROM conversations_v2")
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", u.Path, err)
		}
		var out []Session
		for _, r := range rows {
			out = append(out, Session{App: Kiro, ID: r[0], Folder: r[1], UpdatedMs: epochMs(num([]byte(r[2]))),
				Title: cleanText(r[3], 80), Model: r[4], Path: u.Path + "#" + r[0]})
		}
		return out, nil
	}
	b := readSmall(u.Path, 4<<20)
	s := Session{App: Kiro, UpdatedMs: u.MtimeNs / 1e6}
	for _, k := range []string{"session_id", "sessionId", "id"} {
		fill(&s.ID, strField(b, k))
	}
	for _, k := range []string{"cwd", "workingDirectory", "working_directory", "workspace", "directory"} {
		fill(&s.Folder, fileURIPath(strField(b, k)))
	}
	for _, k := range []string{"title", "name", "summary"} {
		fill(&s.Title, strField(b, k))
	}
	fill(&s.Model, strField(b, "modelId"))
	fill(&s.Model, strField(b, "model"))
	if filepath.Base(u.Path) == "session.json" {
		s.Path = filepath.Join(filepath.Dir(u.Path), "messages.jsonl")
		fill(&s.ID, strings.TrimPrefix(filepath.Base(filepath.Dir(u.Path)), "sess_"))
	} else {
		s.Path = strings.TrimSuffix(u.Path, ".json") + ".jsonl"
		fill(&s.ID, strings.TrimSuffix(filepath.Base(u.Path), ".json"))
	}
	return []Session{s}, nil
}

func (kiroStore) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	if dbPath, id, ok := strings.Cut(s.Path, ".sqlite3#"); ok {
		db, err := openImmutable(dbPath + ".sqlite3")
		if err != nil {
			return Page{}, err
		}
		defer db.Close()
		r, err := queryText(ctx, db, "SELECT value FROM conversations_v2 WHERE conversation_id = ?", id)
		if err != nil || len(r) == 0 {
			return Page{}, fmt.Errorf("reading conversation %s: %v", id, err)
		}
		var rows []Row
		eachElem(field([]byte(r[0][0]), "history"), func(h []byte) bool {
			if p := str(jpath(h, "user", "content", "Prompt", "prompt")); p != "" {
				rows = append(rows, textRow(RowUser, p, ""))
			}
			a := field(h, "assistant")
			if t := str(jpath(a, "Response", "content")); t != "" {
				rows = append(rows, textRow(RowAssistant, t, ""))
			}
			eachElem(jpath(a, "ToolUse", "tool_uses"), func(tu []byte) bool {
				rr := textRow(RowToolCall, string(field(tu, "args")), "")
				rr.Name = strField(tu, "name")
				rows = append(rows, rr)
				return true
			})
			return true
		})
		return pageSlice(rows, cursor, limit), nil
	}
	return readJSONLPage(ctx, s.Path, cursor, limit, func(line []byte) []Row {
		if p := field(line, "payload"); p != nil { // v3
			ts := strField(line, "timestamp")
			switch strField(p, "type") {
			case "user":
				return []Row{textRow(RowUser, strField(p, "content"), ts)}
			case "assistant":
				return []Row{textRow(RowAssistant, strField(p, "content"), ts)}
			case "tool_call":
				r := textRow(RowToolCall, string(field(p, "args")), ts)
				r.Name = strField(p, "toolName")
				return []Row{r}
			case "tool_result":
				r := textRow(RowToolResult, strField(p, "content"), ts)
				r.IsError = string(field(p, "success")) == "false"
				return []Row{r}
			}
			return nil
		}
		kind := RowAssistant // v2: Prompt / AssistantMessage / ToolResults
		switch strField(line, "kind") {
		case "Prompt":
			kind = RowUser
		case "ToolResults":
			kind = RowToolResult
		}
		var rows []Row
		eachElem(jpath(line, "data", "content"), func(c []byte) bool {
			switch strField(c, "kind") {
			case "text":
				rows = append(rows, textRow(kind, strField(c, "data"), ""))
			case "toolUse":
				r := textRow(RowToolCall, string(jpath(c, "data", "input")), "")
				r.Name = str(jpath(c, "data", "name"))
				rows = append(rows, r)
			default:
				if kind == RowToolResult {
					rows = append(rows, textRow(kind, string(field(c, "data")), ""))
				}
			}
			return true
		})
		return rows
	})
}
