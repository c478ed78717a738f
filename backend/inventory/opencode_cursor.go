package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
)

// queryText runs q and returns every row as strings (NULL → "").
func queryText(ctx context.Context, db *sql.DB, q string, args ...any) ([][]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		v := make([]sql.NullString, len(cols))
		p := make([]any, len(v))
		for i := range v {
			p[i] = &v[i]
		}
		if err := rows.Scan(p...); err != nil {
			return nil, err
		}
		r := make([]string, len(v))
		for i := range v {
			r[i] = v[i].String
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// sel builds a select list of the wanted columns, NULL where absent.
func sel(cols map[string]bool, want ...string) string {
	out := make([]string, len(want))
	for i, alts := range want {
		if c := pick(cols, strings.Split(alts, "|")...); c != "" {
			out[i] = `CAST("` + c + `" AS TEXT)`
		} else {
			out[i] = "NULL"
		}
	}
	return strings.Join(out, ", ")
}

// openCode reads OpenCode's SQLite store (~/.local/share/opencode/
// opencode.db, or opencode-<channel>.db; tables session, message, part) and
// its older JSON stores (see opencode_json.go). Child sessions (parent_id
// set) are sub-agents and are skipped.
type openCode struct{}

func (openCode) Apps() []AppID { return []AppID{OpenCode} }

func opencodeData(env Env) string { return filepath.Join(env.dataHome(), "opencode") }

func (o openCode) Roots(env Env) []string {
	d := opencodeData(env)
	return []string{d, filepath.Join(d, "storage", "session"), filepath.Join(d, "project")}
}

func (openCode) Units(ctx context.Context, env Env) ([]Unit, error) {
	d := opencodeData(env)
	out := listFiles(d, func(n string) bool {
		return n == "opencode.db" || (strings.HasPrefix(n, "opencode-") && strings.HasSuffix(n, ".db"))
	})
	for i := range out {
		out[i] = walUnit(out[i]) // OpenCode keeps its newest sessions in the log
	}
	return append(out, openCodeJSONUnits(d)...), nil
}

func (openCode) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	if strings.HasSuffix(u.Path, ".db") {
		db, err := openStore(u.Path)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		cols, err := columns(ctx, db, "session")
		if err != nil || !cols["id"] {
			return nil, fmt.Errorf("reading %s: no session table (%v)", u.Path, err)
		}
		rows, err := queryText(ctx, db, "SELECT "+sel(cols, "id", "parent_id", "directory", "title", "version", "time_updated", "time_archived")+" FROM session")
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", u.Path, err)
		}
		var out []Session
		for _, r := range rows {
			if r[1] != "" {
				continue
			}
			out = append(out, Session{App: OpenCode, ID: r[0], Folder: r[2], Title: r[3], Version: r[4],
				UpdatedMs: epochMs(num([]byte(r[5]))), Archived: r[6] != "" && r[6] != "0",
				Path: u.Path + "#" + r[0], priority: 2})
		}
		return out, nil
	}
	return readOpenCodeJSON(u), nil
}

func (openCode) Merge(in []Session) []Session { return dedupe(in) }

// dedupe keeps the highest-priority report of each id.
func dedupe(in []Session) []Session {
	by := map[string]int{}
	out := in[:0:0]
	for _, s := range in {
		if i, ok := by[s.ID]; ok {
			if s.priority > out[i].priority {
				out[i] = s
			}
			continue
		}
		by[s.ID] = len(out)
		out = append(out, s)
	}
	return out
}

func (openCode) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	type msg struct {
		id, data string
		parts    []string
	}
	var msgs []msg
	if db, id, ok := strings.Cut(s.Path, ".db#"); ok {
		conn, err := openStore(db + ".db")
		if err != nil {
			return Page{}, err
		}
		defer conn.Close()
		ms, err := queryText(ctx, conn, "SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", id)
		if err != nil {
			return Page{}, fmt.Errorf("reading messages: %w", err)
		}
		ps, err := queryText(ctx, conn, "SELECT message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id", id)
		if err != nil {
			return Page{}, fmt.Errorf("reading parts: %w", err)
		}
		byMsg := map[string][]string{}
		for _, p := range ps {
			byMsg[p[0]] = append(byMsg[p[0]], p[1])
		}
		for _, m := range ms {
			msgs = append(msgs, msg{id: m[0], data: m[1], parts: byMsg[m[0]]})
		}
	} else {
		msgDir, partDir := openCodeJSONDirs(s)
		for _, f := range sortedJSON(msgDir) {
			m := msg{id: strings.TrimSuffix(filepath.Base(f), ".json"), data: string(readSmall(f, 4<<20))}
			// The oldest versions kept the parts inside the message.
			eachElem(field([]byte(m.data), "parts"), func(p []byte) bool { m.parts = append(m.parts, string(p)); return true })
			for _, p := range sortedJSON(partDir(m.id)) {
				m.parts = append(m.parts, string(readSmall(p, TranscriptLineCap)))
			}
			msgs = append(msgs, m)
		}
	}
	var rows []Row
	for _, m := range msgs {
		kind := RowAssistant
		if strField([]byte(m.data), "role") == "user" {
			kind = RowUser
		}
		for _, p := range m.parts {
			b := []byte(p)
			switch strField(b, "type") {
			case "text":
				rows = append(rows, textRow(kind, strField(b, "text"), ""))
			case "reasoning":
				rows = append(rows, textRow(RowThinking, strField(b, "text"), ""))
			case "tool":
				st := field(b, "state")
				r := textRow(RowToolCall, string(field(st, "input")), "")
				r.Name = strField(b, "tool")
				rows = append(rows, r)
				out := strField(st, "output")
				fill(&out, strField(st, "error"))
				rr := textRow(RowToolResult, out, "")
				rr.IsError = strField(st, "status") == "error"
				rows = append(rows, rr)
			}
		}
	}
	return pageSlice(rows, cursor, limit), nil
}

// cursorIDE reads Cursor's global state.vscdb (table cursorDiskKV, keys
// composerData:<id> and bubbleId:<composer>:<bubble>) and maps each
// composer to its folder through workspaceStorage/<hash>/workspace.json and
// that workspace's ItemTable key composer.composerData. Only those keys are
// read; the same files hold Cursor's login, which is never queried.
type cursorIDE struct{}

func (cursorIDE) Apps() []AppID { return []AppID{Cursor} }

func cursorUser(env Env) string { return filepath.Join(env.appSupport(), "Cursor", "User") }

func (cursorIDE) Roots(env Env) []string {
	return []string{filepath.Join(cursorUser(env), "globalStorage")}
}

func (cursorIDE) Units(ctx context.Context, env Env) ([]Unit, error) {
	if u, ok := statUnit(filepath.Join(cursorUser(env), "globalStorage", "state.vscdb")); ok {
		return []Unit{u}, nil
	}
	return nil, nil
}

func (cursorIDE) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	db, err := openImmutable(u.Path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	const j = "CASE WHEN json_valid(CAST(value AS TEXT)) THEN json_extract(CAST(value AS TEXT), '%s') END"
	q := "SELECT substr(key, 14), " + fmt.Sprintf(j, "$.name") + ", " + fmt.Sprintf(j, "$.lastUpdatedAt") + ", " +
		fmt.Sprintf(j, "$.createdAt") + ", " + fmt.Sprintf(j, "$.fullConversationHeadersOnly[0].bubbleId") + ", " +
		fmt.Sprintf(j, "$.conversation[0].text") + ", " + fmt.Sprintf(j, "$.modelConfig.modelName") +
		" FROM cursorDiskKV WHERE key LIKE 'composerData:%'"
	rows, err := queryText(ctx, db, q)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", u.Path, err)
	}
	folders := cursorFolders(ctx, env)
	var out []Session
	for _, r := range rows {
		if r[4] == "" && r[5] == "" {
			continue // an empty composer nobody typed into
		}
		s := Session{App: Cursor, ID: r[0], Title: r[1], Model: r[6], Folder: folders[r[0]],
			UpdatedMs: epochMs(num([]byte(r[2]))), Path: u.Path + "#" + r[0]}
		if s.UpdatedMs == 0 {
			s.UpdatedMs = epochMs(num([]byte(r[3])))
		}
		if s.Title == "" {
			first := r[5]
			if first == "" {
				if t, err := queryText(ctx, db, "SELECT "+fmt.Sprintf(j, "$.text")+" FROM cursorDiskKV WHERE key = ?", "bubbleId:"+r[0]+":"+r[4]); err == nil && len(t) > 0 {
					first = t[0][0]
				}
			}
			s.Title = cleanText(first, 80)
		}
		out = append(out, s)
	}
	return out, nil
}

// cursorFolders maps composer ids to workspace folders.
func cursorFolders(ctx context.Context, env Env) map[string]string {
	out := map[string]string{}
	for _, ws := range listDirs(filepath.Join(cursorUser(env), "workspaceStorage")) {
		folder := fileURIPath(strField(readSmall(filepath.Join(ws, "workspace.json"), 64<<10), "folder"))
		if folder == "" {
			continue
		}
		db, err := openImmutable(filepath.Join(ws, "state.vscdb"))
		if err != nil {
			continue
		}
		rows, err := queryText(ctx, db, "SELECT CAST(value AS TEXT) FROM ItemTable WHERE key = 'composer.composerData'")
		db.Close()
		if err != nil || len(rows) == 0 {
			continue
		}
		eachElem(field([]byte(rows[0][0]), "allComposers"), func(c []byte) bool {
			if id := strField(c, "composerId"); id != "" {
				out[id] = folder
			}
			return true
		})
	}
	return out
}

func (cursorIDE) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	dbPath, id, _ := strings.Cut(s.Path, "#")
	db, err := openImmutable(dbPath)
	if err != nil {
		return Page{}, err
	}
	defer db.Close()
	cd, err := queryText(ctx, db, "SELECT CAST(value AS TEXT) FROM cursorDiskKV WHERE key = ?", "composerData:"+id)
	if err != nil || len(cd) == 0 {
		return Page{}, fmt.Errorf("reading composer %s: %v", id, err)
	}
	var bubbles [][]byte
	data := []byte(cd[0][0])
	eachElem(field(data, "conversation"), func(b []byte) bool { bubbles = append(bubbles, b); return true })
	if len(bubbles) == 0 {
		var ids []string
		eachElem(field(data, "fullConversationHeadersOnly"), func(h []byte) bool { ids = append(ids, strField(h, "bubbleId")); return true })
		for _, bid := range ids {
			if r, err := queryText(ctx, db, "SELECT CAST(value AS TEXT) FROM cursorDiskKV WHERE key = ?", "bubbleId:"+id+":"+bid); err == nil && len(r) > 0 {
				bubbles = append(bubbles, []byte(r[0][0]))
			}
		}
	}
	var rows []Row
	for _, b := range bubbles {
		kind := RowAssistant
		if num(field(b, "type")) == 1 {
			kind = RowUser
		}
		if t := str(jpath(b, "thinking", "text")); t != "" {
			rows = append(rows, textRow(RowThinking, t, ""))
		}
		if t := strField(b, "text"); t != "" {
			rows = append(rows, textRow(kind, t, ""))
		}
		if tf := field(b, "toolFormerData"); len(tf) > 2 {
			r := textRow(RowToolCall, strField(tf, "rawArgs"), "")
			r.Name = strField(tf, "name")
			rows = append(rows, r, textRow(RowToolResult, strField(tf, "result"), ""))
		}
	}
	return pageSlice(rows, cursor, limit), nil
}
