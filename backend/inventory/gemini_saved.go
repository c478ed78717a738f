package inventory

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Saved chats: "/chat save <tag>" writes <project>/checkpoint-<tag>.json
// (the tag URL-encoded by newer versions) holding the model history as a
// Content list ({role: user|model, parts: [text | functionCall |
// functionResponse | thought]}), bare in older versions and under
// "history" in newer ones. Versions from before chat recording kept the
// conversation nowhere else. A saved chat is resumed from inside the CLI
// ("/chat resume <tag>"), not by a session id.

func isGeminiSaved(n string) bool {
	return strings.HasPrefix(n, "checkpoint-") && strings.HasSuffix(n, ".json")
}

// geminiSavedTag is the tag a saved chat was saved under.
func geminiSavedTag(p string) string {
	t := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "checkpoint-"), ".json")
	if d, err := url.PathUnescape(t); err == nil {
		return d
	}
	return t
}

func geminiSavedHistory(b []byte) []byte {
	if h := field(b, "history"); h != nil {
		return h
	}
	return b
}

func readGeminiSaved(u Unit, base, home string) []Session {
	if u.Size > geminiLegacyCap {
		return nil
	}
	b := readSmall(u.Path, geminiLegacyCap)
	sum := sha256.Sum256([]byte(u.Path))
	tag := geminiSavedTag(u.Path)
	s := Session{ID: "saved-" + hex.EncodeToString(sum[:8]), Path: u.Path, UpdatedMs: u.MtimeNs / 1e6, Bytes: u.Size}
	projectDir := filepath.Dir(u.Path)
	s.Folder = geminiFolder(projectDir, base)
	var first string
	eachElem(geminiSavedHistory(b), func(c []byte) bool {
		if strField(c, "role") != "user" {
			return true
		}
		t := partsText(field(c, "parts"))
		if s.Folder == "" {
			// The session-context preamble names the folder.
			if _, after, ok := strings.Cut(t, "I'm currently working in the directory: "); ok {
				d, _, _ := strings.Cut(after, "\n")
				if d = strings.TrimSpace(d); filepath.IsAbs(d) {
					s.Folder = d
				}
			}
		}
		if first = promptTitle(t); first != "" {
			return false
		}
		return true
	})
	if s.Folder == "" {
		s.Folder = hashedFolder(filepath.Base(projectDir), b, home)
	}
	s.Title = "Saved chat “" + tag + "”"
	if first != "" {
		s.Title += ": " + first
	}
	return []Session{s}
}

func geminiSavedTranscript(s Session, cursor int64, limit int) (Page, error) {
	f, st, err := openRegular(s.Path)
	if err != nil {
		return Page{}, err
	}
	f.Close()
	if st.Size() > geminiLegacyCap {
		return Page{Rows: []Row{{Kind: RowSkipped, Text: skippedText(st.Size())}}, Done: true}, nil
	}
	var rows []Row
	eachElem(geminiSavedHistory(readSmall(s.Path, geminiLegacyCap)), func(c []byte) bool {
		kind := RowUser
		if strField(c, "role") == "model" {
			kind = RowAssistant
		}
		eachElem(field(c, "parts"), func(p []byte) bool {
			switch {
			case field(p, "functionCall") != nil:
				fc := field(p, "functionCall")
				r := textRow(RowToolCall, string(field(fc, "args")), "")
				r.Name = strField(fc, "name")
				rows = append(rows, r)
			case field(p, "functionResponse") != nil:
				fr := field(p, "functionResponse")
				r := textRow(RowToolResult, string(field(fr, "response")), "")
				r.Name = strField(fr, "name")
				rows = append(rows, r)
			case isTrue(field(p, "thought")):
				rows = append(rows, textRow(RowThinking, strField(p, "text"), ""))
			case strField(p, "text") != "":
				rows = append(rows, textRow(kind, strField(p, "text"), ""))
			}
			return true
		})
		return true
	})
	return pageSlice(rows, cursor, limit), nil
}

// geminiNotResumable explains why a Gemini-style session cannot be resumed
// by id, or returns nil.
func geminiNotResumable(s Session) error {
	if _, _, ok := geminiLogsSession(s); ok {
		return fmt.Errorf("%w: %s kept only the prompts of this session", ErrNotResumable, s.App.Name())
	}
	if isGeminiSaved(filepath.Base(s.Path)) {
		return fmt.Errorf("%w: open %s in the folder and type /chat resume %s", ErrNotResumable, s.App.Name(), cleanText(geminiSavedTag(s.Path), 80))
	}
	return nil
}
