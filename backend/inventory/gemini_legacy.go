package inventory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Older Gemini CLI (and Qwen Code, its fork) stores.

// promptTitle turns a user message into a title, or "" when the message is
// harness text: the session-context preamble some versions record as the
// first user message ("This is the Gemini CLI. We are setting up the
// context…", later wrapped in <session_context>), other tagged blocks, and
// slash commands.
func promptTitle(t string) string {
	t = strings.TrimSpace(t)
	switch {
	case t == "", strings.HasPrefix(t, "<"), strings.HasPrefix(t, "/"),
		strings.HasPrefix(t, "This is the Gemini CLI."), strings.HasPrefix(t, "This is the Qwen Code."):
		return ""
	}
	return cleanText(t, 80)
}

// hashedFolder finds the folder whose SHA-256 names a hash-named project
// folder: the home folder, or an ancestor of an absolute path the data
// mentions (Gemini's file tools take absolute paths, and prompts often name
// files). A hash that nothing matches gives "", never a guess.
func hashedFolder(name string, data []byte, home string) string {
	if len(name) != 64 {
		return ""
	}
	if _, err := hex.DecodeString(name); err != nil {
		return ""
	}
	tried := map[string]bool{}
	match := func(p string) bool {
		if tried[p] {
			return false
		}
		tried[p] = true
		sum := sha256.Sum256([]byte(p))
		return hex.EncodeToString(sum[:]) == name
	}
	if home != "" && match(home) {
		return home
	}
	// Bounded work on a large chat: at most this many candidate paths (each
	// hashed with its ancestors) and this many slashes looked at.
	const maxPaths, maxSlashes = 256, 1 << 14
	paths := 0
	for rest, slashes := data, 0; paths < maxPaths && slashes < maxSlashes; slashes++ {
		i := bytes.IndexByte(rest, '/')
		if i < 0 {
			break
		}
		// A path starts a JSON string or follows a space, "@", "=", ":" or "(".
		if i > 0 && !bytes.ContainsAny(rest[i-1:i], "\" @=:(") {
			rest = rest[i+1:]
			continue
		}
		paths++
		end := bytes.IndexAny(rest[i:], "\"\\ \n\t`'),;")
		if end < 0 {
			end = len(rest) - i
		}
		p := filepath.Clean(string(rest[i : i+end]))
		rest = rest[i+end:]
		for len(p) > 1 {
			if match(p) {
				return p
			}
			p = filepath.Dir(p)
		}
	}
	return ""
}

// geminiLogsCap bounds logs.json: it holds one line per prompt ever typed
// in the project, so even years of use stay well below this.
const geminiLogsCap = 16 << 20

// readGeminiLogs lists the sessions of a project's logs.json (prompts
// only). Sessions that also have a chat file are reported by it with a
// higher priority; these fill in for versions that recorded no chats.
func readGeminiLogs(u Unit, base, home string) []Session {
	if u.Size > geminiLogsCap {
		return nil
	}
	b := readSmall(u.Path, geminiLogsCap)
	projectDir := filepath.Dir(u.Path)
	folder := geminiFolder(projectDir, base)
	if folder == "" {
		folder = hashedFolder(filepath.Base(projectDir), b, home)
	}
	by := map[string]*Session{}
	var order []string
	eachElem(b, func(e []byte) bool {
		id := strField(e, "sessionId")
		if id == "" || strField(e, "type") != "user" {
			return true
		}
		s := by[id]
		if s == nil {
			s = &Session{ID: id, Folder: folder, Path: u.Path + "#" + id}
			by[id] = s
			order = append(order, id)
		}
		if s.Title == "" {
			s.Title = promptTitle(strField(e, "message"))
		}
		if ms := isoMs(strField(e, "timestamp")); ms > s.UpdatedMs {
			s.UpdatedMs = ms
		}
		return true
	})
	out := make([]Session, 0, len(order))
	for _, id := range order {
		s := *by[id]
		if s.UpdatedMs == 0 {
			s.UpdatedMs = u.MtimeNs / 1e6
		}
		out = append(out, s)
	}
	return out
}

// geminiLogsSession reports whether s was listed from a logs.json, which
// holds prompts only and cannot be resumed by id.
func geminiLogsSession(s Session) (path, id string, ok bool) {
	path, id, ok = strings.Cut(s.Path, "logs.json#")
	return path + "logs.json", id, ok
}

func geminiLogsTranscript(path, id string, cursor int64, limit int) (Page, error) {
	f, st, err := openRegular(path)
	if err != nil {
		return Page{}, err
	}
	f.Close()
	if st.Size() > geminiLogsCap {
		return Page{Rows: []Row{{Kind: RowSkipped, Text: skippedText(st.Size())}}, Done: true}, nil
	}
	type prompt struct {
		n   int64
		row Row
	}
	var ps []prompt
	eachElem(readSmall(path, geminiLogsCap), func(e []byte) bool {
		if strField(e, "sessionId") == id && strField(e, "type") == "user" {
			ps = append(ps, prompt{num(field(e, "messageId")), textRow(RowUser, strField(e, "message"), strField(e, "timestamp"))})
		}
		return true
	})
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].n < ps[j].n })
	rows := make([]Row, len(ps))
	for i, p := range ps {
		rows[i] = p.row
	}
	return pageSlice(rows, cursor, limit), nil
}

// isoMs parses an RFC 3339 timestamp to epoch milliseconds (0 if invalid).
func isoMs(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}
