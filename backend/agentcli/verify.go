package agentcli

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Verify labels (docs/reference.md §3). A check that could not reach the CLI's service
// is labelled "Cannot reach <service>" (CannotReachLabel).
const (
	LabelSignedIn    = "✓ Signed in"
	LabelNeedsSignIn = "Needs sign-in"
)

// CannotReachLabel is the label of a check whose CLI could not reach its
// service (the network, a proxy or a base URL), which says nothing about
// the sign-in.
func CannotReachLabel(service string) string { return "Cannot reach " + service }

// VerifyPrompt is the minimal completion a sign-in check asks for.
const VerifyPrompt = "Reply with the single word: ok"

// Verification is the outcome of "Verify sign-in".
type Verification struct {
	Agent    Agent  `json:"agent"`
	SignedIn bool   `json:"signedIn"`
	Label    string `json:"label"` // LabelSignedIn, LabelNeedsSignIn or CannotReachLabel
	// Detail is what the CLI said (the reason when not signed in).
	Detail   string        `json:"detail"`
	Argv     []string      `json:"argv"` // the command that ran (no secrets in it)
	Duration time.Duration `json:"duration"`
	// Unreachable: the CLI said it cannot reach its service; Service names
	// it (a host for a base URL the user set, else "Anthropic"/"OpenAI").
	Unreachable bool   `json:"unreachable"`
	Service     string `json:"service"`
}

// VerifyOptions tune one check.
type VerifyOptions struct {
	Limit time.Duration // 0: VerifyLimit
	// OnStatus receives the check's live status line: the CLI starting,
	// waiting for the answer, or its own retry line ("Reconnecting…").
	OnStatus func(string)
}

// Verify runs a minimal completion through the same command builder as
// real runs, under the 300 s limit. The check leaves no session in the
// CLI's own history (--no-session-persistence, --ephemeral), and it ends
// early with Unreachable when the CLI reports it cannot reach its service.
// An error means the check could not run at all (CLI missing or unusable,
// or ctx ended); a CLI that runs but is not signed in is a Verification
// with SignedIn false.
func (r *Runner) Verify(ctx context.Context, a Agent, o VerifyOptions) (Verification, error) {
	start := time.Now()
	v := Verification{Agent: a, Label: LabelNeedsSignIn}
	limit := o.Limit
	if limit <= 0 {
		limit = VerifyLimit
	}
	status := o.OnStatus
	if status == nil {
		status = func(string) {}
	}
	bin, err := r.bin(a)
	if err != nil {
		return v, err
	}
	sys := r.Env()
	env := ScrubEnv(a, sys.Environ)
	var prov codexProvider
	if a == Codex {
		if prov, err = readCodexProvider(sys); err != nil {
			return v, err
		}
		if env, err = prov.withKey(env, sys); err != nil {
			// The check cannot run, and signing in would not help.
			v.Label, v.Detail, v.Service = "Missing "+prov.EnvKey, err.Error(), prov.service()
			return v, nil
		}
	}
	dir, err := runFolder("", true, sys.Home)
	if err != nil {
		return v, err
	}
	var res Result
	s := &sink{res: &res}
	var dec decoder
	switch a {
	case Claude:
		v.Service = claudeService(env)
		v.Argv, err = BuildClaude(bin, ClaudeArgs{Prompt: VerifyPrompt, Chat: true, NoSession: true, Extra: r.o.ClaudeExtra})
		dec = newClaudeDecoder(s)
	case Codex:
		v.Service = codexService(r.o.CodexConfig)
		if prov.custom() && v.Service == "OpenAI" {
			v.Service = prov.service()
		}
		var help string
		help, err = r.probe.help(ctx, bin, env, "exec", "--help")
		if err != nil {
			return v, fmt.Errorf("Codex at %s could not print its help: %w — reinstall or update it", bin, err)
		}
		v.Argv, err = BuildCodex(bin, CodexArgs{Prompt: VerifyPrompt, Sandbox: "read-only",
			IgnoreRules: containsFlag(help, "--ignore-rules"), Ephemeral: containsFlag(help, "--ephemeral"),
			Config: append(slices.Clip(prov.overrides), r.o.CodexConfig...)})
		dec = newCodexDecoder(s)
	default:
		return v, fmt.Errorf("verifying %q: only claude and codex can be verified", a)
	}
	if err != nil {
		return v, err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	w := newReachWatch(a, v.Service, status, stop)
	defer w.close()
	status("Starting " + a.Title() + "…")
	pr := runProc(runCtx, procSpec{Argv: v.Argv, Env: env, Dir: dir, Limit: limit, OnLine: func(l []byte) {
		w.line(l)
		dec.line(l)
	}})
	v.Duration = time.Since(start)
	if why, ok := w.unreachable(); ok && ctx.Err() == nil {
		v.Unreachable, v.Label = true, CannotReachLabel(v.Service)
		v.Detail = fmt.Sprintf("%s cannot reach %s (%s). Check your network connection, proxy or VPN, then verify again.", a.Title(), v.Service, why)
		if prov.custom() {
			v.Detail = fmt.Sprintf("%s cannot be reached (%s). Check its base_url in [model_providers.%s] of %s, your network connection, proxy or VPN, then verify again.",
				prov.describe(), why, prov.ID, prov.File)
		}
		return v, nil
	}
	if pr.TimedOut {
		// Not a task to split: the CLI never answered one word.
		v.Detail = fmt.Sprintf("%s gave no answer within %s and was stopped. Check your network connection, then verify again.", a.Title(), limit.Round(time.Second))
		return v, nil
	}
	res.ExitCode, res.StderrTail = pr.ExitCode, pr.Stderr
	if err := outcome(a, pr, dec.final(), &res, limit); err != nil {
		if pr.StartErr != nil || pr.Canceled {
			return v, err // the check itself could not run
		}
		// It ran and could not complete (not logged in, 401): that is what
		// "Needs sign-in" reports, with the reason, and with the provider
		// when it is the person's own.
		v.Detail = err.Error()
		if prov.custom() {
			v.Detail = prov.describe() + " failed: " + v.Detail
		}
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
