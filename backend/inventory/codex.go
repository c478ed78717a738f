package inventory

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/osfoundry/desktop/backend/lazy"
)

// codexStore reads ~/.codex (Codex CLI and the Codex desktop app share it):
// the index ~/.codex/state_<n>.sqlite (highest n, table threads) and the
// rollouts ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl and
// ~/.codex/archived_sessions/. Both are units; when both report a thread
// the database row wins and the rollout fills what the row lacks, so a
// locked, corrupt or missing database falls back to the rollouts, and a
// thread Codex has not yet checkpointed into the database still shows.
type codexStore struct{}

func (codexStore) Apps() []AppID { return []AppID{CodexCLI, CodexApp} }

func codexHome(env Env) string {
	if v := env.getenv("CODEX_HOME"); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".codex")
}

func (codexStore) Roots(env Env) []string {
	h := codexHome(env)
	return []string{h, filepath.Join(h, "sessions"), filepath.Join(h, "archived_sessions")}
}

var stateDBName = lazy.Regexp(`^state_(\d+)\.sqlite$`)

func (codexStore) Units(ctx context.Context, env Env) ([]Unit, error) {
	h := codexHome(env)
	if !isDir(h) {
		return nil, nil
	}
	var out []Unit
	if u, ok := newestStateDB(h); ok {
		out = append(out, u)
	}
	isRollout := isRolloutName
	for _, y := range listDirs(filepath.Join(h, "sessions")) {
		for _, m := range listDirs(y) {
			for _, d := range listDirs(m) {
				out = append(out, listFiles(d, isRollout)...)
			}
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	arch := filepath.Join(h, "archived_sessions")
	out = append(out, listFiles(arch, isRollout)...)
	for _, d := range listDirs(arch) { // some versions keep the date tree
		for _, m := range listDirs(d) {
			for _, dd := range listDirs(m) {
				out = append(out, listFiles(dd, isRollout)...)
			}
		}
	}
	return out, nil
}

// newestStateDB finds state_<n>.sqlite with the highest n in Codex's home.
func newestStateDB(h string) (Unit, bool) {
	best, bestN := Unit{}, -1
	for _, u := range listFiles(h, func(n string) bool { return stateDBName().MatchString(n) }) {
		n, _ := strconv.Atoi(stateDBName().FindStringSubmatch(filepath.Base(u.Path))[1])
		if n > bestN {
			best, bestN = u, n
		}
	}
	return walUnit(best), bestN >= 0
}

func (c codexStore) Read(ctx context.Context, env Env, u Unit) ([]Session, error) {
	if stateDBName().MatchString(filepath.Base(u.Path)) {
		return readCodexDB(ctx, u.Path)
	}
	s, ok, err := readRollout(u.Path)
	if err != nil || !ok {
		return nil, err
	}
	setTime(&s, s.UpdatedMs, u.MtimeNs)
	s.Bytes = u.Size
	s.Archived = strings.Contains(filepath.ToSlash(u.Path), "/archived_sessions/")
	return []Session{s}, nil
}

// readCodexDB reads the threads table, whose columns differ between Codex
// versions: it takes the ones it knows by name.
func readCodexDB(ctx context.Context, path string) ([]Session, error) {
	db, err := openStore(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	// One query names the columns and reads the rows: asking for the
	// columns apart cost as much as reading the rows.
	rows, err := db.QueryContext(ctx, "SELECT * FROM threads")
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	cols := make(map[string]bool, len(names))
	at := make(map[string]int, len(names))
	for i, n := range names {
		cols[n], at[n] = true, i
	}
	if !cols["id"] {
		return nil, fmt.Errorf("reading %s: no threads table", path)
	}
	want := [][]string{
		{"id"}, {"rollout_path"}, {"cwd"}, {"git_branch"}, {"title"}, {"model"},
		{"reasoning_effort"}, {"approval_mode", "approval_policy"}, {"sandbox_policy", "sandbox_mode"},
		{"source"}, {"archived"}, {"updated_at_ms"}, {"updated_at"}, {"originator"}, {"cli_version"},
		{"first_user_message"},
	}
	col := make([]int, len(want)) // want[i]'s column, -1 for none
	for i, alts := range want {
		col[i] = -1
		if c := pick(cols, alts...); c != "" {
			col[i] = at[c]
		}
	}
	raw := make([]sql.RawBytes, len(names))
	ptrs := make([]any, len(raw))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	var out []Session
	v := make([]sql.NullString, len(want))
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		for i, c := range col {
			v[i] = sql.NullString{}
			if c >= 0 && raw[c] != nil {
				v[i] = sql.NullString{String: string(raw[c]), Valid: true}
			}
		}
		src := strings.TrimSpace(v[9].String)
		if strings.HasPrefix(src, "{") {
			continue // a sub-agent thread: nobody resumes it directly
		}
		s := Session{
			ID: v[0].String, Path: v[1].String, Folder: v[2].String, Branch: v[3].String,
			Title: v[4].String, Model: v[5].String, Effort: v[6].String,
			Mode: kebab(v[7].String), Sandbox: sandboxMode(v[8].String),
			Archived:   v[10].String == "1" || v[10].String == "true",
			originator: v[13].String + " " + src, Version: v[14].String, priority: 2,
		}
		if ms, _ := strconv.ParseInt(v[11].String, 10, 64); ms > 0 {
			s.UpdatedMs, s.TimeFrom = ms, TimeRecorded
		} else if sec, _ := strconv.ParseInt(v[12].String, 10, 64); sec > 0 {
			s.UpdatedMs, s.TimeFrom = sec*1000, TimeRecorded
		}
		first := v[15].String
		fill(&first, v[4].String)
		markPromptRun(&s, v[13].String == codexExecOriginator || src == "exec", codexPrompt(first), true)
		if s.ID != "" {
			out = append(out, s)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return out, nil
}

// sandboxMode normalises a sandbox policy: "workspace-write", or a JSON
// object with "type" or "mode".
func sandboxMode(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "{") {
		b := []byte(v)
		if t := strField(b, "type"); t != "" {
			return kebab(t)
		}
		return kebab(strField(b, "mode"))
	}
	return kebab(v)
}

// kebab turns "OnRequest" or "on_request" into "on-request".
func kebab(v string) string {
	var b strings.Builder
	for i, r := range strings.TrimSpace(v) {
		switch {
		case r == '_' || r == ' ':
			b.WriteByte('-')
		case unicode.IsUpper(r):
			if i > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return strings.ReplaceAll(b.String(), "--", "-")
}

var classicSandbox = map[string]bool{"read-only": true, "workspace-write": true, "danger-full-access": true}

var desktopOriginator = lazy.Regexp(`(?i)desktop|codex_work|chatgpt|codex_app|codex_mac|vscode`)

// cliOriginator names the command line's own clients. Codex 0.169's TUI
// runs its conversations in the app-server daemon, whose threads say
// source "vscode" like the editor's and the app's; the originator
// ("codex-tui", "codex_cli_rs", "codex_exec") still says the CLI made it.
var cliOriginator = lazy.Regexp(`(?i)^(codex[-_]tui|codex_cli_rs|codex[-_]exec)(\s|$)`)

// Merge joins the database row and the rollout of each thread, then says
// which app started it.
func (codexStore) Merge(in []Session) []Session {
	by := map[string]int{}
	var out []Session
	for _, s := range in {
		i, ok := by[s.ID]
		if !ok {
			by[s.ID] = len(out)
			out = append(out, s)
			continue
		}
		hi, lo := out[i], s
		if lo.priority > hi.priority {
			hi, lo = lo, hi
		}
		if lo.priority == 1 && lo.Path != "" {
			// The rollout the index just found on disk: the database's
			// rollout_path may be stale (moved ~/.codex, archived since).
			hi.Path, hi.Bytes = lo.Path, lo.Bytes
		}
		fill(&hi.Path, lo.Path)
		fill(&hi.Folder, lo.Folder)
		fill(&hi.Branch, lo.Branch)
		fill(&hi.Title, lo.Title)
		fill(&hi.Model, lo.Model)
		fill(&hi.Effort, lo.Effort)
		fill(&hi.Mode, lo.Mode)
		fill(&hi.Sandbox, lo.Sandbox)
		if !classicSandbox[hi.Sandbox] && classicSandbox[lo.Sandbox] {
			// Codex 0.169's database holds permission profiles ("managed");
			// its rollouts still record the classic mode `-s` takes.
			hi.Sandbox = lo.Sandbox
		}
		fill(&hi.Version, lo.Version)
		if strings.TrimSpace(hi.originator) == "" {
			hi.originator = lo.originator
		}
		if hi.Bytes == 0 {
			hi.Bytes = lo.Bytes
		}
		// A recorded time beats a file's mtime; of two recorded, the newer.
		if (lo.TimeFrom == hi.TimeFrom && lo.UpdatedMs > hi.UpdatedMs) || (lo.TimeFrom == TimeRecorded && hi.TimeFrom != TimeRecorded) {
			hi.UpdatedMs, hi.TimeFrom = lo.UpdatedMs, lo.TimeFrom
		}
		if lo.OwnRun && !hi.OwnRun {
			hi.OwnRun, hi.RunWhy, hi.Title = true, lo.RunWhy, lo.Title
		}
		hi.Archived = hi.Archived || lo.Archived
		out[i] = hi
	}
	for i := range out {
		out[i].App = CodexCLI
		if o := strings.TrimSpace(out[i].originator); !cliOriginator().MatchString(o) && desktopOriginator().MatchString(o) {
			out[i].App = CodexApp
		}
	}
	return out
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

func (codexStore) Transcript(ctx context.Context, env Env, s Session, cursor int64, limit int) (Page, error) {
	if s.Path == "" || !fileExists(s.Path) {
		return Page{}, fmt.Errorf("reading transcript: the rollout file of %s is gone", s.ID)
	}
	return readJSONLPage(ctx, s.Path, cursor, limit, codexRows)
}

func codexRows(line []byte) []Row {
	ts := strField(line, "timestamp")
	typ, p := codexLine(line)
	switch typ {
	case "session_meta":
		if cwd := strField(p, "cwd"); cwd != "" {
			return []Row{{Kind: RowSystem, Text: "Session started in " + cwd, Time: ts}}
		}
		return []Row{{Kind: RowSystem, Text: "Session started", Time: ts}}
	case "":
		if strField(line, "id") != "" && field(line, "record_type") == nil {
			return []Row{{Kind: RowSystem, Text: "Session started", Time: ts}} // older bare meta line
		}
		return nil // {"record_type":"state"} markers
	case "compacted":
		return []Row{{Kind: RowSystem, Text: "Conversation compacted", Time: ts}}
	case "response_item":
	default:
		// event_msg and turn_context repeat what response items say;
		// world_state and types a newer version adds are not conversation.
		return nil
	}
	switch strField(p, "type") {
	case "message":
		t := blocksText(field(p, "content"))
		switch strField(p, "role") {
		case "developer", "system":
			// Instructions Codex writes for the model (permissions,
			// skills, collaboration mode): not conversation.
			return nil
		case "user":
			if strings.HasPrefix(strings.TrimSpace(t), "<turn_aborted>") {
				return []Row{{Kind: RowSystem, Text: "The user interrupted this turn", Time: ts}}
			}
			typed := codexPrompt(t)
			if typed == "" {
				return nil // context Codex injected (<environment_context>, AGENTS.md), not typed
			}
			return []Row{textRow(RowUser, typed, ts)}
		}
		return []Row{textRow(RowAssistant, t, ts)}
	case "reasoning":
		return []Row{textRow(RowThinking, blocksText(field(p, "summary")), ts)}
	case "function_call", "custom_tool_call":
		args := strField(p, "arguments")
		if args == "" {
			args = strField(p, "input")
		}
		r := textRow(RowToolCall, args, ts)
		r.Name = strField(p, "name")
		return []Row{r}
	case "local_shell_call":
		r := textRow(RowToolCall, string(jpath(p, "action", "command")), ts)
		r.Name = "shell"
		return []Row{r}
	case "function_call_output", "custom_tool_call_output":
		out := field(p, "output")
		t := str(out)
		if t == "" {
			t = blocksText(out)
			if c := strField(out, "content"); c != "" {
				t = c
			}
		}
		return []Row{textRow(RowToolResult, t, ts)}
	case "web_search_call":
		r := textRow(RowToolCall, str(jpath(p, "action", "query")), ts)
		r.Name = "web_search"
		return []Row{r}
	}
	return nil
}
