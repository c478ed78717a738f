package cli

import (
	"context"
	"errors"
	"flag"
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
	"github.com/osfoundry/desktop/backend/cost"
	"github.com/osfoundry/desktop/backend/roles"
	"github.com/osfoundry/desktop/backend/store"
)

func init() {
	c := &Command{
		Name:  "run",
		Usage: "--model ID [--role R] [--folder DIR] [--worktree] [--limit 30m] [--] TASK|-  |  --fleet FILE | --loop FILE | --graph FILE | --until TEXT|--count N [--max N] TASK  [--max-spend USD] [--concurrency N]",
		Help:  "Run a task on Claude Code or Codex (cli:claude, cli:claude:agent, cli:codex:agent): progress lines on stderr, the final answer on stdout. --fleet, --loop and --graph run a JSON job file (docs/orchestration.md) and follow every child; --until or --count loops TASK.",
		Page: &Page{
			About: "One task: the run uses the role's prompt and tools (--role, default Worker) on the model --model names, " +
				"or the role's model in the app's settings, in --folder or the most recent Local Folder. API keys are " +
				"removed from the CLI's environment: it runs on your subscription. Progress lines go to stderr, the answer " +
				"to stdout; with --worktree the changes stay on a branch of their own, named at the end.\n\n" +
				"A job: --fleet, --loop or --graph read a JSON job file whose format docs/orchestration.md gives (fleet: " +
				"tasks side by side; loop: one task repeated until a condition or a count; graph: steps after the steps " +
				"they depend on). --until TEXT or --count N loop TASK without a file. Every child's state is followed " +
				"until the job ends; --max-spend and --concurrency limit it, Ctrl-C cancels it. The job appears in the " +
				"window's Orchestration screen too.",
			Flags:   func() *flag.FlagSet { fs, _ := runFlags(); return fs },
			Example: "osfoundry run --model cli:claude:agent --folder . \"list the TODOs in this repository\"\nosfoundry run --fleet review.json --max-spend 2",
			Docs:    "docs/orchestration.md",
		},
	}
	c.Run = func(env *Env, args []string) int { return runTask(env, c, args) }
	register(c)
}

type runOpts struct {
	model, role, folder string
	worktree            bool
	limit               time.Duration
	jobFlags
}

// runFlags is run's flag set; the help page lists these same flags.
func runFlags() (*flag.FlagSet, *runOpts) {
	var o runOpts
	jf := &o.jobFlags
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.model, "model", "", "model id: cli:claude, cli:claude:agent or cli:codex:agent, with @MODEL for the CLI's own model (cli:claude:agent@opus) (default: the role's assigned model)")
	fs.StringVar(&o.role, "role", "Worker", "pipeline role: "+strings.Join(roles.RoleNames(), ", "))
	fs.StringVar(&o.folder, "folder", "", "working folder (default: the most recently added Local Folder)")
	fs.BoolVar(&o.worktree, "worktree", false, "isolate the run on its own git branch and worktree")
	fs.DurationVar(&o.limit, "limit", agentcli.AutonomousLimit, "wall-clock limit")
	fs.StringVar(&jf.fleet, "fleet", "", "a fleet file: tasks run in parallel")
	fs.StringVar(&jf.loop, "loop", "", "a loop file: one task repeated until its condition or count")
	fs.StringVar(&jf.graph, "graph", "", "a graph file: steps with ids and depends_on")
	fs.Float64Var(&jf.maxSpend, "max-spend", 0, "stop the job once its runs' reported cost reaches this many dollars")
	fs.IntVar(&jf.concurrency, "concurrency", 0, "children running at once")
	fs.StringVar(&jf.until, "until", "", "loop TASK until this condition holds (each iteration sees the last result)")
	fs.IntVar(&jf.count, "count", 0, "loop TASK this many times")
	fs.IntVar(&jf.maxIter, "max", 0, "a loop's most iterations")
	return fs, &o
}

func runTask(env *Env, c *Command, args []string) int {
	fs, o := runFlags()
	model, roleName, folder, worktree, limit := &o.model, &o.role, &o.folder, &o.worktree, &o.limit
	if err := fs.Parse(args); err != nil {
		return fail(env, c, "%v", err)
	}
	jf := o.jobFlags
	kind, file, err := jf.kind()
	if err != nil {
		return fail(env, c, "%v", err)
	}
	jobLimit := time.Duration(0)
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "limit" {
			jobLimit = *limit
		}
	})
	inline := jf.until != "" || jf.count != 0
	switch {
	case (inline || jf.maxIter != 0) && kind != "" && kind != "loop":
		return fail(env, c, "--until, --count and --max are for a loop; a %s file has no use for them", kind)
	case jf.maxIter != 0 && !inline && kind == "":
		return fail(env, c, "--max needs --until or --count: a loop needs a stop condition")
	case kind != "":
		if fs.NArg() > 0 {
			return fail(env, c, "--%s takes its tasks from the file; remove %q", kind, strings.Join(fs.Args(), " "))
		}
		return runJob(env, c, kind, file, jf, jobLimit, *model, *folder)
	}
	task := strings.Join(fs.Args(), " ")
	if task == "-" {
		b, err := io.ReadAll(io.LimitReader(env.Stdin, 1<<20))
		if err != nil {
			return fail(env, c, "reading the task from stdin: %v", err)
		}
		task = string(b)
	}
	if strings.TrimSpace(task) == "" {
		return fail(env, c, "no task: pass it after the flags, or - to read it from stdin")
	}
	if inline {
		// osfoundry run --until TEXT|--count N [--max N] [--role R] TASK
		jf.task, jf.role = task, *roleName
		return runJob(env, c, "loop", "", jf, jobLimit, *model, *folder)
	}
	role, err := roles.LookupRole(*roleName)
	if err != nil {
		return fail(env, c, "%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	dir, err := appdir.Dir()
	if err != nil {
		return runFailed(env, err)
	}
	runner := agentcli.NewRunner(agentcli.RunnerOptions{Env: agentcli.SystemEnv(), WorktreeDir: filepath.Join(dir, "worktrees")})
	if *model == "" || *folder == "" {
		// The app's own settings: the role's model, the current Local Folder.
		if err := fromSettings(ctx, dir, runner, role.Name, model, folder); err != nil {
			return runFailed(env, err)
		}
	}
	m, err := agentcli.ParseModel(*model)
	if err != nil {
		return runFailed(env, err)
	}
	job := agentcli.Job{Model: m.ID, Role: role.Name, NeedsTools: role.NeedsTools, SystemPrompt: role.Prompt,
		Turns: []agentcli.Turn{{Role: "user", Text: task}}, Folder: *folder, Worktree: *worktree, Limit: *limit,
		OnEvent: func(e agentcli.Event) {
			switch e.Kind {
			case agentcli.KindProgress, agentcli.KindError, agentcli.KindRaw:
				fmt.Fprintln(env.Stderr, "· "+safe(e.Text)) // tool names and arguments come from the agent
			}
		}}
	if role.NeedsTools && !m.Chat {
		exec, closeDB, err := headlessExecutor(ctx)
		if err != nil {
			return runFailed(env, fmt.Errorf("opening the app's tools: %w", err))
		}
		defer closeDB()
		job.Tools = &agentcli.ToolAccess{Executor: exec, Workspace: "default", User: "local", Channel: "headless",
			Allow: roles.DefaultTools}
	}
	res, err := runner.Run(ctx, job)
	if err != nil {
		if res.Branch != "" {
			fmt.Fprintf(env.Stderr, "· the run's changes are on branch %s of %s\n", safe(res.Branch), safe(res.Repo))
		}
		return runFailed(env, err)
	}
	printRunResult(env, m.ID, res)
	return 0
}

// printRunResult prints a finished run: the answer on stdout, usage and
// the run's branch on stderr. Everything the agent wrote goes through
// safeText or safe: an answer is the agent's to choose, and printed raw an
// escape sequence in it could set the clipboard (OSC 52) or the title.
func printRunResult(env *Env, model string, res agentcli.Result) {
	fmt.Fprintln(env.Stdout, safeText(strings.TrimRight(res.Text, "\n")))
	u := res.Usage
	fmt.Fprintf(env.Stderr, "· %s · context %d tokens · output %d tokens · cost: %s · %s\n",
		safe(model), u.ContextTokens, u.OutputTokens, cost.OfRun(res.ReportedCostUSD).Label(), res.Duration.Round(100*time.Millisecond))
	if res.Branch != "" {
		fmt.Fprintf(env.Stderr, "· changes on branch %s of %s:\n%s\n", safe(res.Branch), safe(res.Repo), safeText(res.DiffStat))
	}
}

func fromSettings(ctx context.Context, dir string, runner *agentcli.Runner, role string, model, folder *string) error {
	db, err := store.Open(filepath.Join(dir, store.FileName))
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := chat.New(ctx, chat.Options{DB: db, Runner: runner})
	if err != nil {
		return err
	}
	defer svc.Close()
	if *model == "" {
		r, err := svc.Roles().RoleModel(ctx, role)
		if err != nil {
			return fmt.Errorf("%w (or pass --model)", err)
		}
		*model = r.Model
	}
	if *folder == "" {
		f, err := svc.Roles().CurrentFolder(ctx)
		if err != nil && !errors.Is(err, roles.ErrNoFolders) {
			return err
		}
		if f == "" {
			// Headless with no Local Folder: the folder the command runs in.
			if f, err = os.Getwd(); err != nil {
				return fmt.Errorf("finding the current folder: %w", err)
			}
		}
		*folder = f
	}
	return nil
}

func runFailed(env *Env, err error) int {
	fmt.Fprintf(env.Stderr, "osfoundry run: %v\n", err)
	return 1
}
