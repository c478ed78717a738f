package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/osfoundry/desktop/backend/worktree"
)

func init() {
	registerBench(&bench{
		name: "worktree",
		help: "New pane on a new branch: worktree created and files copied (before the set-up command) on a repository of N files.",
		run:  runWorktreeBench,
	})
}

func runWorktreeBench(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench worktree", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	files := fs.Int("files", 10000, "tracked files in the repository")
	runs := fs.Int("runs", 9, "panes to start (each on its own new branch)")
	where := fs.String("dir", "", "folder for the repository and its worktrees (default: the temp folder; a tmpfs leaves the disk out)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	tmp, err := os.MkdirTemp(*where, "osf-bench-worktree-")
	if err != nil {
		fmt.Fprintln(env.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	gitEnv := append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.invalid",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.invalid", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	repo := filepath.Join(tmp, "big")
	if err := benchRepo(gitEnv, repo, *files); err != nil {
		fmt.Fprintln(env.Stderr, err)
		return 1
	}
	// What a person typically copies: an .env and a few local config files.
	cfg := worktree.Config{Copy: []string{".env", "config/*.local.json"}}
	ctx := context.Background()
	var took, cpu []time.Duration
	copied := 0
	for i := 0; i < *runs; i++ {
		t0, c0 := time.Now(), selfCPU()+childrenCPU()
		tr, err := worktree.Create(ctx, worktree.Request{Repo: repo, Name: fmt.Sprintf("bench-%d", i), Env: gitEnv}, cfg)
		if err != nil {
			fmt.Fprintln(env.Stderr, err)
			return 1
		}
		took, cpu = append(took, time.Since(t0)), append(cpu, selfCPU()+childrenCPU()-c0)
		copied = len(tr.Copied)
		// Not timed: the next pane starts beside a repository with one
		// worktree, like the first.
		worktree.Discard(gitEnv, tr)
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	sort.Slice(cpu, func(i, j int) bool { return cpu[i] < cpu[j] })
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0f", float64(d.Microseconds())/1000) }
	fmt.Fprintf(env.Stdout, "New pane on a new branch: git worktree add + %d files copied, repository of %d files in %s, %d panes\n\n", copied, *files, tmp, *runs)
	printTable(env, []string{"step", "p50 ms", "p90 ms", "max ms", "CPU p50 ms (app + git)", "target"}, [][]string{
		{"worktree created + files copied (before the set-up command)", ms(took[len(took)/2]), ms(took[len(took)*9/10]), ms(took[len(took)-1]), ms(cpu[len(cpu)/2]), "p50 ≤ 500 ms"},
	})
	return 0
}

// benchRepo makes a repository of n small files in folders of 100, one
// commit, with ignored local files to copy.
func benchRepo(env []string, repo string, n int) error {
	for i := 0; i < n; i++ {
		p := filepath.Join(repo, "src", fmt.Sprintf("m%03d", i/100), fmt.Sprintf("f%05d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("package m\n\n// F%d is file %d.\nfunc F%d() int { return %d }\n", i, i, i, i)), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(".env\n*.local.json\n"), 0o644); err != nil {
		return err
	}
	ctx := context.Background()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "files"}} {
		if _, err := worktree.Git(ctx, env, repo, args...); err != nil {
			return fmt.Errorf("making the bench repository: %w", err)
		}
	}
	os.MkdirAll(filepath.Join(repo, "config"), 0o755)
	for name, text := range map[string]string{".env": "KEY=1\n", "config/db.local.json": "{}\n", "config/api.local.json": "{}\n"} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
