package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/chat"
	"github.com/osfoundry/desktop/backend/orchestrate"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/runs"
	"github.com/osfoundry/desktop/backend/store"
)

// jobFlags are `osfoundry run`'s orchestration flags: a fleet, loop or
// graph file (docs/orchestration.md) and limits that override the file's.
type jobFlags struct {
	fleet, loop, graph string
	maxSpend           float64
	concurrency        int
	// A loop given on the command line (or overriding its file's).
	until          string
	count, maxIter int
	task, role     string
}

func (f jobFlags) kind() (string, string, error) {
	var set []string
	for _, k := range [][2]string{{"fleet", f.fleet}, {"loop", f.loop}, {"graph", f.graph}} {
		if k[1] != "" {
			set = append(set, k[0])
		}
	}
	switch len(set) {
	case 0:
		return "", "", nil
	case 1:
		file := map[string]string{"fleet": f.fleet, "loop": f.loop, "graph": f.graph}[set[0]]
		return set[0], file, nil
	}
	return "", "", fmt.Errorf("give one of --fleet, --loop or --graph, not --%s", strings.Join(set, " and --"))
}

// maxJobFile bounds a job file: a fleet of the most tasks with long
// prompts is a few hundred KB, so anything larger is not a job file.
const maxJobFile = 4 << 20

// readJobFile decodes a job file strictly: an unknown field is a typo the
// person should hear about, not a setting silently ignored.
func readJobFile(env *Env, path string, v any) error {
	var b []byte
	var err error
	if path == "-" {
		b, err = readLimited(env.Stdin, maxJobFile)
	} else {
		b, err = readRegularFile(path, maxJobFile)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("reading %s: %w (the format is in docs/orchestration.md)", path, err)
	}
	return nil
}

// readRegularFile reads a plain file of at most limit bytes. /dev/zero
// would be read until memory runs out and a FIFO would wait forever for a
// writer, so anything but a regular file is refused: checked before
// opening, opened without blocking (a FIFO swapped in after the check
// cannot hang the open), and checked again on what was opened.
func readRegularFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular(st)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errNotRegular(st)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("the file is %d MB, more than a job file's %d MB; check the path", st.Size()>>20, limit>>20)
	}
	return readLimited(f, limit)
}

func errNotRegular(st os.FileInfo) error {
	return fmt.Errorf("not a regular file (%s); give the path of a JSON job file, or - for standard input", st.Mode().Type())
}

// readLimited reads r to its end, refusing more than limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("more than a job file's %d MB; check the path", limit>>20)
	}
	return b, nil
}

// runJob starts a fleet, loop or graph from a file and follows it to its
// end: a line on stderr whenever a child changes, each child's result on
// stdout. Ctrl-C cancels the job (every child's CLI is stopped). The exit
// code is 0 when the job is done, 1 otherwise.
func runJob(env *Env, c *Command, kind, file string, jf jobFlags, limit time.Duration, model, folder string) int {
	var start func(ctx context.Context, p *orchestrate.Person) (orchestrate.Status, error)
	apply := func(l *orchestrate.Limits) {
		if limit > 0 && l.MaxSeconds == 0 {
			l.MaxSeconds = int(limit.Seconds())
		}
		// != 0, not > 0: a negative or NaN value is refused with the
		// reason rather than quietly ignored.
		if jf.maxSpend != 0 {
			l.MaxSpendUSD = jf.maxSpend
		}
		if jf.concurrency != 0 {
			l.Concurrency = jf.concurrency
		}
	}
	var roleNames []string
	switch kind {
	case "fleet":
		var r orchestrate.FleetRequest
		if err := readJobFile(env, file, &r); err != nil {
			return fail(env, c, "%v", err)
		}
		apply(&r.Limits)
		for i := range r.Tasks {
			if r.Tasks[i].Model == "" {
				r.Tasks[i].Model = model
			}
			if r.Tasks[i].Folder == "" {
				r.Tasks[i].Folder = folder
			}
			roleNames = append(roleNames, r.Tasks[i].Role)
		}
		start = func(ctx context.Context, p *orchestrate.Person) (orchestrate.Status, error) {
			return p.StartFleet(ctx, r)
		}
	case "loop":
		r := orchestrate.LoopRequest{Role: jf.role, Task: jf.task}
		if file != "" {
			if err := readJobFile(env, file, &r); err != nil {
				return fail(env, c, "%v", err)
			}
		}
		if jf.until != "" {
			r.Until = jf.until
		}
		if jf.count != 0 {
			r.Count = jf.count
		}
		if jf.maxIter != 0 {
			r.MaxIterations = jf.maxIter
		}
		apply(&r.Limits)
		if r.Model == "" {
			r.Model = model
		}
		if r.Folder == "" {
			r.Folder = folder
		}
		roleNames = append(roleNames, r.Role)
		start = func(ctx context.Context, p *orchestrate.Person) (orchestrate.Status, error) {
			return p.StartLoop(ctx, r)
		}
	case "graph":
		var r orchestrate.GraphRequest
		if err := readJobFile(env, file, &r); err != nil {
			return fail(env, c, "%v", err)
		}
		apply(&r.Limits)
		for i := range r.Steps {
			if r.Steps[i].Model == "" {
				r.Steps[i].Model = model
			}
			if r.Steps[i].Folder == "" {
				r.Steps[i].Folder = folder
			}
			roleNames = append(roleNames, r.Steps[i].Role)
		}
		start = func(ctx context.Context, p *orchestrate.Person) (orchestrate.Status, error) {
			return p.StartGraph(ctx, r)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	h, err := openJobHost(ctx, roleNames)
	if err != nil {
		return runFailed(env, err)
	}
	defer h.close()
	p := h.m.ForPerson(orchestrate.OwnerCLI)
	st, err := start(ctx, p)
	if err != nil {
		// Nothing started: the request was refused as a whole.
		return fail(env, c, "%v", err)
	}
	fmt.Fprintf(env.Stderr, "· %s %s started: %d %s\n", safe(st.Kind), safe(st.ID), len(st.Steps), plural(len(st.Steps), "child", "children"))
	seen := map[string]string{}
	changed := make(chan struct{}, 1)
	h.m.OnChange(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	report := func(st orchestrate.Status) {
		for _, s := range st.Steps {
			if line := stepLine(s); seen[s.ID] != line {
				seen[s.ID] = line
				fmt.Fprintln(env.Stderr, line)
			}
		}
	}
	for !st.Ended() {
		select {
		case <-changed:
		case <-ctx.Done():
			fmt.Fprintln(env.Stderr, "· cancelling: stopping every child")
			st, _ = p.CancelJob(st.ID)
			continue
		}
		if st, err = p.Get(st.ID); err != nil {
			return runFailed(env, err)
		}
		report(st)
	}
	report(st)
	printJobResult(env, st)
	if st.State != orchestrate.StateDone {
		return 1
	}
	return 0
}

// stepLine is a child's progress line. Step ids, roles, progress (tool
// names) and errors are the job file's or the agents' words, so each goes
// through safe: raw, an escape in one could set the clipboard or title.
func stepLine(s orchestrate.Step) string {
	line := s.State
	if s.Progress != "" {
		line += " — " + s.Progress
	}
	if s.Error != "" && s.State != orchestrate.StateRunning {
		line += " — " + s.Error
	}
	return fmt.Sprintf("· [%s %s] %s", safe(s.ID), safe(s.Role), safe(line))
}

// printJobResult prints every child's answer on stdout (several lines
// each, through safeText) and the job's end on stderr.
func printJobResult(env *Env, st orchestrate.Status) {
	for _, s := range st.Steps {
		fmt.Fprintf(env.Stdout, "## %s · %s · %s\n%s\n\n", safe(s.ID), safe(s.Role), safe(s.State), safeText(strings.TrimRight(s.Answer, "\n")))
	}
	end := fmt.Sprintf("· %s %s: %s · cost: %s", safe(st.Kind), safe(st.ID), safe(st.State), st.Cost.Label())
	for _, x := range []string{st.Note, st.Error} {
		if x != "" {
			end += " · " + safe(x)
		}
	}
	fmt.Fprintln(env.Stderr, end)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// jobHost is the pipeline and orchestrator a command-line job runs on.
// The pipeline keeps its runs in a database of its own, not the app's: a
// second pipeline over the app's database would take the window's
// running runs for ones interrupted by a crash. The app's role models,
// Local Folders and CLI switches are copied in. The job itself is kept in
// the app's database, where the window shows it on the Sessions board and
// can cancel it (backend/orchestrate/others.go).
type jobHost struct {
	svc   *chat.Service
	m     *orchestrate.Manager
	db    *sql.DB
	appDB *sql.DB
	dir   string
	close func()
}

func openJobHost(ctx context.Context, roleNames []string) (*jobHost, error) {
	tmp, err := os.MkdirTemp("", "osfoundry-run-")
	if err != nil {
		return nil, fmt.Errorf("making the job's folder: %w", err)
	}
	db, err := store.Open(filepath.Join(tmp, store.FileName))
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	h := &jobHost{db: db, dir: tmp}
	var closeTools func()
	h.close = func() {
		if h.m != nil {
			h.m.Close()
		}
		if h.svc != nil {
			h.svc.Close()
		}
		if closeTools != nil {
			closeTools()
		}
		if h.appDB != nil {
			h.appDB.Close()
		}
		db.Close()
		os.RemoveAll(tmp)
	}
	dataDir, err := appdir.Dir()
	if err != nil {
		h.close()
		return nil, err
	}
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.SystemEnv(), WorktreeDir: filepath.Join(dataDir, "worktrees")})
	opts := chat.Options{DB: db, Runner: runner, Emitter: progressLines{h}}
	if needsTools(roleNames) {
		exec, c, err := headlessExecutor(ctx)
		if err != nil {
			h.close()
			return nil, fmt.Errorf("opening the app's tools: %w", err)
		}
		closeTools = c
		// Nobody can answer an approval here: such a tool is refused at
		// once (Watched false) rather than waiting for ever.
		opts.Tools = func(runID string, role roles.Role) *agentcli.ToolAccess {
			return &agentcli.ToolAccess{Executor: exec, Workspace: "default", User: "local", Channel: "headless", Allow: roles.DefaultTools}
		}
	}
	if h.svc, err = chat.New(ctx, opts); err != nil {
		h.close()
		return nil, err
	}
	if err := copySettings(ctx, dataDir, h.svc); err != nil {
		h.close()
		return nil, err
	}
	if _, err := h.svc.Roles().CurrentFolder(ctx); errors.Is(err, roles.ErrNoFolders) {
		// Headless with no Local Folder: the folder the command runs in.
		wd, err := os.Getwd()
		if err != nil {
			h.close()
			return nil, fmt.Errorf("finding the current folder: %w", err)
		}
		if _, err := h.svc.Roles().AddFolder(ctx, wd); err != nil {
			h.close()
			return nil, err
		}
	}
	if h.appDB, _, err = openAppDB(); err != nil {
		h.close()
		return nil, err
	}
	if h.m, err = orchestrate.Open(ctx, h.svc.Pipeline(), h.svc.Runs(), h.appDB); err != nil {
		h.close()
		return nil, err
	}
	return h, nil
}

func needsTools(roleNames []string) bool {
	for _, r := range roleNames {
		if role, err := roles.LookupRole(r); err == nil && role.NeedsTools {
			return true
		}
	}
	return false
}

// copySettings copies the app's role models, Local Folders and CLI
// switches into the job's pipeline (none when the app never ran).
func copySettings(ctx context.Context, dataDir string, svc *chat.Service) error {
	path := filepath.Join(dataDir, store.FileName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	defer db.Close()
	read := func(q string, each func(a, b string) error) error {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			return nil // the app has not set this up yet
		}
		defer rows.Close()
		for rows.Next() {
			var a, b string
			if err := rows.Scan(&a, &b); err != nil {
				return fmt.Errorf("reading the app's settings: %w", err)
			}
			if err := each(a, b); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	if err := read(`SELECT role, model FROM pipeline_roles WHERE model <> ''`, func(role, model string) error {
		// A stale assignment is left out; the run then says the role has
		// no model, as the window would.
		svc.Roles().SetRoleModel(ctx, role, model) //nolint:errcheck
		return nil
	}); err != nil {
		return err
	}
	if err := read(`SELECT path, path FROM pipeline_folders ORDER BY added_at, id`, func(p, _ string) error {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			_, err := svc.Roles().AddFolder(ctx, p)
			return err
		}
		return nil
	}); err != nil {
		return err
	}
	return read(`SELECT agent, CAST(enabled AS TEXT) FROM pipeline_cli`, func(agent, on string) error {
		if on == "0" {
			svc.Roles().SetEnabled(ctx, agent, false) //nolint:errcheck // an unknown CLI name stays on; the run says if it cannot start
		}
		return nil
	})
}

// progressLines gives each run's progress lines to the job, whose lines
// on stderr then show what every child is doing.
type progressLines struct{ h *jobHost }

func (p progressLines) Emit(event string, payload any) {
	if e, ok := payload.(runs.RunEvent); ok && event == runs.EventRun && e.Kind == agentcli.KindProgress && p.h.m != nil {
		p.h.m.RunProgress(e.RunID, e.Text)
	}
}
