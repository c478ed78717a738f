package inventory

import (
	"path/filepath"
	"sort"
	"strings"
)

// OpenCode's JSON stores, before it moved to SQLite. Two layouts exist:
//
//   - global (≈0.4 – 1.1): storage/session/<project id>/<session id>.json
//     (with "directory"), storage/message/<session id>/<message id>.json,
//     storage/part/<message id>/<part id>.json;
//   - per project (≤0.3): project/<project>/storage/session/info/<id>.json
//     (no folder), storage/session/message/<session id>/<message id>.json
//     (assistant messages carry path.cwd, or metadata.assistant.path.cwd in
//     the oldest versions, whose messages also hold their parts inline) and
//     storage/session/part/<session id>/<message id>/<part id>.json.
//
// OpenCode copies the per-project store into the global one (and that into
// its database) when it upgrades and leaves the old files behind, so the
// same session can be reported three times: the newest store wins.

func isJSON(n string) bool { return strings.HasSuffix(n, ".json") }

func openCodeJSONUnits(d string) []Unit {
	var out []Unit
	for _, p := range listDirs(filepath.Join(d, "storage", "session")) {
		out = append(out, listFiles(p, isJSON)...)
	}
	for _, p := range listDirs(filepath.Join(d, "project")) {
		out = append(out, listFiles(filepath.Join(p, "storage", "session", "info"), isJSON)...)
	}
	return out
}

// openCodeProjectInfo reports whether p is a per-project session info file.
func openCodeProjectInfo(p string) bool {
	return filepath.Base(filepath.Dir(p)) == "info" && filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(p)))))) == "project"
}

func readOpenCodeJSON(u Unit) []Session {
	b := readSmall(u.Path, 4<<20)
	if len(field(b, "parentID")) > 2 || strField(b, "id") == "" {
		return nil
	}
	s := Session{App: OpenCode, ID: strField(b, "id"), Folder: strField(b, "directory"),
		Title: strField(b, "title"), Version: strField(b, "version"),
		UpdatedMs: epochMs(num(jpath(b, "time", "updated"))), Path: u.Path, Bytes: u.Size, priority: 1}
	if s.UpdatedMs == 0 {
		s.UpdatedMs = u.MtimeNs / 1e6
	}
	if openCodeProjectInfo(u.Path) {
		s.priority = 0
		if s.Folder == "" {
			s.Folder = openCodeMessageFolder(s)
		}
	}
	return []Session{s}
}

// openCodeMessageFolder finds the folder in the first messages that name one
// (only assistant messages do; a session's second message is usually one).
func openCodeMessageFolder(s Session) string {
	msgDir, _ := openCodeJSONDirs(s)
	for i, f := range sortedJSON(msgDir) {
		if i >= 16 {
			break
		}
		b := readSmall(f, 1<<20)
		for _, p := range [][]string{{"path", "cwd"}, {"path", "root"}, {"metadata", "assistant", "path", "cwd"}} {
			if v := str(jpath(b, p...)); v != "" {
				return v
			}
		}
	}
	return ""
}

// openCodeJSONDirs returns a JSON-store session's message folder and, per
// message id, its part folder.
func openCodeJSONDirs(s Session) (string, func(msgID string) string) {
	if openCodeProjectInfo(s.Path) {
		st := filepath.Dir(filepath.Dir(s.Path)) // …/storage/session
		return filepath.Join(st, "message", s.ID), func(id string) string { return filepath.Join(st, "part", s.ID, id) }
	}
	storage := filepath.Dir(filepath.Dir(filepath.Dir(s.Path)))
	return filepath.Join(storage, "message", s.ID), func(id string) string { return filepath.Join(storage, "part", id) }
}

// sortedJSON lists a folder's .json files in name order (OpenCode's ids
// sort by creation time).
func sortedJSON(dir string) []string {
	us := listFiles(dir, isJSON)
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Path
	}
	sort.Strings(out)
	return out
}
