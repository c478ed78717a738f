package chat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/agentcli"
	"github.com/osfoundry/desktop/backend/roles"
)

func verifyState(t *testing.T, s *Service, agent string) roles.VerifyState {
	t.Helper()
	for _, v := range s.Roles().VerifyStates() {
		if v.Agent == agent {
			return v
		}
	}
	t.Fatalf("no verify state for %s in %+v", agent, s.Roles().VerifyStates())
	return roles.VerifyState{}
}

func waitVerify(t *testing.T, s *Service, agent string, done func(roles.VerifyState) bool) roles.VerifyState {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		if v := verifyState(t, s, agent); done(v) {
			return v
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("verify state never reached: %+v", verifyState(t, s, agent))
	return roles.VerifyState{}
}

// The check runs in the service, not in the window: its live status and
// its result are there for whoever asks later (another tab, the dialog
// opened again), and a second start while one runs is refused.
func TestVerifyRunsInTheServiceAndCancels(t *testing.T) {
	r := newRig(t, "hang", "")
	st, err := r.svc.Roles().StartVerify(context.Background(), "claude")
	if err != nil || !st.Running || st.Agent != "claude" {
		t.Fatalf("start = %+v, %v", st, err)
	}
	if _, err := r.svc.Roles().StartVerify(context.Background(), "claude"); !errors.Is(err, roles.ErrVerifyRunning) {
		t.Errorf("a second start while one runs = %v, want roles.ErrVerifyRunning", err)
	}
	v := waitVerify(t, r.svc, "claude", func(v roles.VerifyState) bool { return strings.HasPrefix(v.Status, "Waiting for") })
	if !v.Running {
		t.Fatalf("state while the CLI hangs: %+v", v)
	}
	if err := r.svc.Roles().CancelVerify("claude"); err != nil {
		t.Fatal(err)
	}
	running := v
	v = waitVerify(t, r.svc, "claude", func(v roles.VerifyState) bool { return !v.Running })
	if v.Result != nil || v.Error != "Check cancelled." {
		t.Errorf("after cancel: %+v", v)
	}
	// a window that gets the events out of order keeps the highest seq
	if !(st.Seq < running.Seq && running.Seq < v.Seq) {
		t.Errorf("seq does not grow: start %d, status %d, end %d", st.Seq, running.Seq, v.Seq)
	}
	if err := r.svc.Roles().CancelVerify("claude"); err == nil {
		t.Error("cancelling with no check running should say so")
	}
}

func TestVerifyResultStays(t *testing.T) {
	r := newRig(t, "ok", "ok")
	if _, err := r.svc.Roles().StartVerify(context.Background(), "claude"); err != nil {
		t.Fatal(err)
	}
	v := waitVerify(t, r.svc, "claude", func(v roles.VerifyState) bool { return !v.Running })
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
	for _, c := range r.svc.Roles().ExternalAI(context.Background()) {
		if c.Agent == agentcli.Claude && c.Version != "2.1.328" {
			t.Errorf("Claude Code row: version %q, error %q", c.Version, c.VersionError)
		}
	}
}
