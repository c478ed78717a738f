package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
)

func verifyState(t *testing.T, s *Service, agent string) VerifyState {
	t.Helper()
	for _, v := range s.VerifyStates() {
		if v.Agent == agent {
			return v
		}
	}
	t.Fatalf("no verify state for %s in %+v", agent, s.VerifyStates())
	return VerifyState{}
}

func waitVerify(t *testing.T, s *Service, agent string, done func(VerifyState) bool) VerifyState {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		if v := verifyState(t, s, agent); done(v) {
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("verify state never reached: %+v", verifyState(t, s, agent))
	return VerifyState{}
}

// The check runs in the service, not in the window: its live status and
// its result are there for whoever asks later (another tab, the dialog
// opened again), and a second start while one runs is refused.
func TestVerifyRunsInTheServiceAndCancels(t *testing.T) {
	r := newRig(t, "hang", "")
	st, err := r.svc.StartVerify(context.Background(), "claude")
	if err != nil || !st.Running || st.Agent != "claude" {
		t.Fatalf("start = %+v, %v", st, err)
	}
	if _, err := r.svc.StartVerify(context.Background(), "claude"); !errors.Is(err, ErrVerifyRunning) {
		t.Errorf("a second start while one runs = %v, want ErrVerifyRunning", err)
	}
	v := waitVerify(t, r.svc, "claude", func(v VerifyState) bool { return strings.HasPrefix(v.Status, "Waiting for") })
	if !v.Running {
		t.Fatalf("state while the CLI hangs: %+v", v)
	}
	if err := r.svc.CancelVerify("claude"); err != nil {
		t.Fatal(err)
	}
	v = waitVerify(t, r.svc, "claude", func(v VerifyState) bool { return !v.Running })
	if v.Result != nil || v.Error != "Check cancelled." {
		t.Errorf("after cancel: %+v", v)
	}
	if err := r.svc.CancelVerify("claude"); err == nil {
		t.Error("cancelling with no check running should say so")
	}
}

func TestVerifyResultStays(t *testing.T) {
	r := newRig(t, "ok", "ok")
	if _, err := r.svc.StartVerify(context.Background(), "claude"); err != nil {
		t.Fatal(err)
	}
	v := waitVerify(t, r.svc, "claude", func(v VerifyState) bool { return !v.Running })
	if v.Result == nil || !v.Result.SignedIn || v.Result.Label != agentcli.LabelSignedIn {
		t.Fatalf("result = %+v", v)
	}
	if !strings.Contains(strings.Join(r.lastArgv(t), " "), "--no-session-persistence") {
		t.Errorf("the check keeps a session: %q", r.lastArgv(t))
	}
	// asked again later (the tab opened again): the same answer
	if again := verifyState(t, r.svc, "claude"); again.Result == nil || again.Result.Label != v.Result.Label {
		t.Errorf("asked again: %+v", again)
	}
	if codex := verifyState(t, r.svc, "codex"); codex.Running || codex.Result != nil {
		t.Errorf("codex was never checked: %+v", codex)
	}
}

func TestExternalAIShowsVersion(t *testing.T) {
	r := newRig(t, "ok", "ok")
	for _, c := range r.svc.ExternalAI(context.Background()) {
		if c.Agent == agentcli.Claude && c.Version != "2.1.328" {
			t.Errorf("Claude Code row: version %q, error %q", c.Version, c.VersionError)
		}
	}
}
