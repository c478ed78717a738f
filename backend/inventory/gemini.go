package inventory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// geminiCLI reads ~/.gemini/tmp/<project>/chats/session-*.json(l). <project>
// is a short slug (newer versions, with the absolute folder in
// <project>/.project_root and ~/.gemini/projects.json) or the SHA-256 of the
// folder (older versions). Legacy files are one JSON object with a messages
// array; current files are JSONL: a metadata line, message records, "$set"
// metadata updates and "$rewindTo" records. Sub-agent chats live one folder
// deeper (chats/<parent id>/) and carry kind "subagent": both are skipped.
//
// Older layouts: the store is $GEMINI_CLI_HOME/.gemini when that is set;
// versions before projects.json name project folders only by hash (the
// folder is then found by hashing the absolute paths the chat mentions);
// versions before chat recording (mid 2025) kept only <project>/logs.json,
// the user's prompts, which is listed for sessions that have no chat file.
type geminiCLI struct{}

func (geminiCLI) Apps() []AppID { return []AppID{GeminiCLI} }

// geminiBase is ~/.gemini, or $GEMINI_CLI_HOME/.gemini (the CLI takes that
// variable as its home folder).
func geminiBase(env Env) string {
	if v := env.getenv("GEMINI_CLI_HOME"); v != "" && filepath.IsAbs(v) {
		return filepath.Join(v, ".gemini")
	}
	return filepath.Join(env.Home, ".gemini")
}

func (geminiCLI) Roots(env Env) []string { return []string{filepath.Join(geminiBase(env), "tmp")} }

func (g geminiCLI) Units(ctx context.Context, env Env) ([]Unit, error) {
	return chatUnits(g.Roots(env)[0], isGeminiChat), nil
}

func isGeminiChat(n string) bool {
	return strings.HasPrefix(n, "session-") && (strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".jsonl"))
}

// chatUnits lists <root>/<project>/chats/ files that keep says are chats,
// and each project's logs.json and saved chats.
func chatUnits(root string, keep func(string) bool) []Unit {
	var out []Unit
	for _, p := range listDirs(root) {
		out = append(out, listFiles(filepath.Join(p, "chats"), keep)...)
		out = append(out, listFiles(p, func(n string) bool { return n == "logs.json" || isGeminiSaved(n) })...)
	}
	return out
}

func (geminiCLI) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	ss, err := readGeminiUnit(u, geminiBase(env), env.Home)
	for i := range ss {
		ss[i].App = GeminiCLI
	}
	return ss, err
}

func (geminiCLI) Merge(in []Session) []Session { return dedupe(in) }

// readGeminiUnit reads a chat file or a logs.json of a Gemini-style store.
func readGeminiUnit(u Unit, base, home string) ([]Session, error) {
	if filepath.Base(u.Path) == "logs.json" {
		return readGeminiLogs(u, base, home), nil
	}
	if isGeminiSaved(filepath.Base(u.Path)) {
		return readGeminiSaved(u, base, home), nil
	}
	s, ok, err := readGeminiChat(u, base, home)
	if err != nil || !ok {
		return nil, err
	}
	return []Session{s}, nil
}

// geminiFolder finds a project's folder from the .project_root marker or the
// projects.json registry (by slug, or by SHA-256 for hash-named folders).
func geminiFolder(projectDir, base string) string {
	if b := readSmall(filepath.Join(projectDir, ".project_root"), 4096); len(b) > 0 {
		return strings.TrimSpace(string(b))
	}
	name := filepath.Base(projectDir)
	reg := readSmall(filepath.Join(base, "projects.json"), 1<<20)
	var found string
	eachField(field(reg, "projects"), func(k, v []byte) bool {
		p := str(append(append([]byte{'"'}, k...), '"'))
		sum := sha256.Sum256([]byte(p))
		if str(v) == name || hex.EncodeToString(sum[:]) == name {
			found = p
			return false
		}
		return true
	})
	return found
}

// readSmall reads at most max bytes of a regular file; errors give nil.
func readSmall(p string, max int64) []byte {
	f, _, err := openRegular(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, max))
	return b
}

// geminiLegacyCap bounds how much of a legacy one-object chat file the index
// reads; the fields it needs come before the messages array except summary.
const geminiLegacyCap = 64 << 20

func readGeminiChat(u Unit, base, home string) (Session, bool, error) {
	s := Session{Path: u.Path, Bytes: u.Size, priority: 1}
	var recorded int64
	projectDir := filepath.Dir(filepath.Dir(u.Path))
	s.Folder = geminiFolder(projectDir, base)
	var summary, first string
	var seen []byte // what was read, to find a hash-named project's folder
	kind := ""
	onMsg := func(m []byte) {
		t := strField(m, "type")
		if first == "" && t == "user" {
			first = promptTitle(partsText(field(m, "content")))
		}
		if mod := strField(m, "model"); mod != "" {
			s.Model = mod
		}
	}
	onMeta := func(m []byte) {
		if v := strField(m, "sessionId"); v != "" {
			s.ID = v
		}
		if v := strField(m, "summary"); v != "" {
			summary = v
		}
		if v := strField(m, "kind"); v != "" {
			kind = v
		}
	}
	if strings.HasSuffix(u.Path, ".json") {
		f, _, err := openRegular(u.Path)
		if err != nil {
			return s, false, err
		}
		b, err := io.ReadAll(io.LimitReader(f, geminiLegacyCap))
		f.Close()
		if err != nil {
			return s, false, err
		}
		onMeta(b)
		recorded = timeMs(field(b, "lastUpdated"))
		eachElem(field(b, "messages"), func(m []byte) bool { onMsg(m); return true })
		seen = b
	} else {
		f, st, err := openRegular(u.Path)
		if err != nil {
			return s, false, err
		}
		defer f.Close()
		err = readHead(f, HeadLines, func(line []byte) bool {
			if s.Folder == "" && len(seen) < 4<<20 {
				seen = append(seen, line...)
			}
			switch {
			case field(line, "$set") != nil:
				onMeta(field(line, "$set"))
			case strField(line, "id") != "":
				onMsg(line)
			case strField(line, "sessionId") != "":
				onMeta(line)
			}
			return first == ""
		})
		if err != nil {
			return s, false, err
		}
		_ = readTailBackward(f, st.Size(), func(line []byte) bool {
			if set := field(line, "$set"); set != nil {
				if summary == "" {
					summary = strField(set, "summary")
				}
				if recorded == 0 {
					recorded = timeMs(field(set, "lastUpdated"))
				}
			}
			recordTime(&recorded, line)
			if s.Model == "" && strField(line, "type") == "gemini" {
				s.Model = strField(line, "model")
			}
			return summary == "" || s.Model == "" || recorded == 0
		})
	}
	if s.ID == "" || kind == "subagent" {
		return s, false, nil
	}
	if s.Folder == "" {
		s.Folder = hashedFolder(filepath.Base(projectDir), seen, home)
	}
	setTime(&s, recorded, u.MtimeNs)
	s.Title = summary
	if s.Title == "" {
		s.Title = first
	}
	return s, true, nil
}

// partsText flattens Gemini content: a string or a list of {text} parts.
func partsText(v []byte) string {
	if len(v) > 0 && v[0] == '"' {
		return str(v)
	}
	var parts []string
	eachElem(v, func(b []byte) bool {
		if t := strField(b, "text"); t != "" {
			parts = append(parts, t)
		}
		return true
	})
	return strings.Join(parts, "")
}

func (geminiCLI) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	return geminiTranscript(ctx, s, cursor, limit)
}

func geminiTranscript(ctx context.Context, s Session, cursor int64, limit int) (Page, error) {
	if path, id, ok := geminiLogsSession(s); ok {
		return geminiLogsTranscript(path, id, cursor, limit)
	}
	if isGeminiSaved(filepath.Base(s.Path)) {
		return geminiSavedTranscript(s, cursor, limit)
	}
	if strings.HasSuffix(s.Path, ".jsonl") {
		return readJSONLPage(ctx, s.Path, cursor, limit, func(line []byte) []Row {
			if strField(line, "id") == "" || field(line, "$set") != nil {
				return nil
			}
			return geminiRows(line)
		})
	}
	f, _, err := openRegular(s.Path)
	if err != nil {
		return Page{}, err
	}
	defer f.Close()
	st, _ := f.Stat()
	if st.Size() > geminiLegacyCap {
		return Page{Rows: []Row{{Kind: RowSkipped, Text: skippedText(st.Size())}}, Done: true}, nil
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return Page{}, err
	}
	var rows []Row
	eachElem(field(b, "messages"), func(m []byte) bool { rows = append(rows, geminiRows(m)...); return true })
	return pageSlice(rows, cursor, limit), nil
}

// geminiRows: a user/gemini/info message, its thoughts, and each tool call
// with its result on separate rows.
func geminiRows(m []byte) []Row {
	ts := strField(m, "timestamp")
	var rows []Row
	kind := RowSystem
	switch strField(m, "type") {
	case "user":
		kind = RowUser
	case "gemini", "qwen", "model":
		kind = RowAssistant
	}
	eachElem(field(m, "thoughts"), func(t []byte) bool {
		rows = append(rows, textRow(RowThinking, strings.TrimSpace(strField(t, "subject")+"\n"+strField(t, "description")), ts))
		return true
	})
	if t := partsText(field(m, "content")); t != "" {
		rows = append(rows, textRow(kind, t, ts))
	}
	eachElem(field(m, "toolCalls"), func(tc []byte) bool {
		r := textRow(RowToolCall, string(field(tc, "args")), ts)
		r.Name = strField(tc, "name")
		rows = append(rows, r)
		res := field(tc, "result")
		var out string
		eachElem(res, func(p []byte) bool {
			out += string(jpath(p, "functionResponse", "response"))
			return true
		})
		if out == "" {
			out = strField(tc, "resultDisplay")
		}
		rr := textRow(RowToolResult, out, ts)
		rr.IsError = strField(tc, "status") == "error"
		rows = append(rows, rr)
		return true
	})
	return rows
}

// osReadDirNames lists names in dir (errors give none).
func osReadDirNames(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name()
	}
	return out
}
