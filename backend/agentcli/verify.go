package agentcli

import (
	"context"
	"fmt"
	"time"
)

// Verify labels (SPEC §3).
const (
	LabelSignedIn    = "✓ Signed in"
	LabelNeedsSignIn = "Needs sign-in"
)

// VerifyPrompt is the minimal completion a sign-in check asks for.
const VerifyPrompt = "Reply with the single word: ok"

// Verification is the outcome of "Verify sign-in".
type Verification struct {
	Agent    Agent  `json:"agent"`
	SignedIn bool   `json:"signedIn"`
	Label    string `json:"label"` // LabelSignedIn or LabelNeedsSignIn
	// Detail is what the CLI said (the reason when not signed in).
	Detail   string        `json:"detail"`
	Argv     []string      `json:"argv"` // the command that ran (no secrets in it)
	Duration time.Duration `json:"duration"`
}

// Verify runs a minimal completion through the same command builder as
// real runs, under the 300 s limit. An error means the check could not run
// at all (CLI missing or unusable); a CLI that runs but is not signed in
// is a Verification with SignedIn false.
func (r *Runner) Verify(ctx context.Context, a Agent, limit time.Duration) (Verification, error) {
	start := time.Now()
	v := Verification{Agent: a, Label: LabelNeedsSignIn}
	if limit <= 0 {
		limit = VerifyLimit
	}
	bin, err := r.bin(a)
	if err != nil {
		return v, err
	}
	sys := r.Env()
	env := ScrubEnv(a, sys.Environ)
	dir, err := runFolder("", true, sys.Home)
	if err != nil {
		return v, err
	}
	var res Result
	s := &sink{res: &res}
	var dec decoder
	switch a {
	case Claude:
		v.Argv, err = BuildClaude(bin, ClaudeArgs{Prompt: VerifyPrompt, Chat: true, Extra: r.o.ClaudeExtra})
		dec = newClaudeDecoder(s)
	case Codex:
		var ignore bool
		ignore, err = r.probe.hasFlag(ctx, bin, env, "--ignore-rules", "exec")
		if err != nil {
			return v, fmt.Errorf("Codex at %s could not print its help: %w — reinstall or update it", bin, err)
		}
		v.Argv, err = BuildCodex(bin, CodexArgs{Prompt: VerifyPrompt, Sandbox: "read-only", IgnoreRules: ignore, Config: r.o.CodexConfig})
		dec = newCodexDecoder(s)
	default:
		return v, fmt.Errorf("verifying %q: only claude and codex can be verified", a)
	}
	if err != nil {
		return v, err
	}
	pr := runProc(ctx, procSpec{Argv: v.Argv, Env: env, Dir: dir, Limit: limit, OnLine: dec.line})
	v.Duration = time.Since(start)
	res.ExitCode, res.StderrTail = pr.ExitCode, pr.Stderr
	if err := outcome(a, pr, dec.final(), &res, limit); err != nil {
		if pr.StartErr != nil || pr.Canceled {
			return v, err // the check itself could not run
		}
		// It ran and could not complete (not logged in, 401, no answer in
		// time): that is what "Needs sign-in" reports, with the reason.
		v.Detail = err.Error()
		return v, nil
	}
	v.SignedIn, v.Label, v.Detail = true, LabelSignedIn, res.Text
	return v, nil
}

// SignInCommand is the argv of the Sign in terminal: Claude's own prompt
// (where the user types /login; ClaudeSignInHint says so) or `codex login`.
func (r *Runner) SignInCommand(a Agent) ([]string, error) {
	bin, err := r.bin(a)
	if err != nil {
		return nil, err
	}
	if a == Codex {
		return []string{bin, "login"}, nil
	}
	return []string{bin}, nil
}

// ChildEnv is the scrubbed environment CLI children (and the Sign in
// terminal) start with.
func (r *Runner) ChildEnv(a Agent) []string { return ScrubEnv(a, r.Env().Environ) }
