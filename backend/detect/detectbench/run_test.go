package detectbench

import (
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/rules"
)

// The experiment's outcome that does not depend on timing: our detector and
// the screen-rule sweep never miss a prompt and never cry wolf; the quiet
// timers and the "?" heuristic do, as in the reference article.
func TestRunScoresTheExperiment(t *testing.T) {
	reg, _, err := detect.Load(rules.Files, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(reg, Options{Seed: 7, Tasks: 12})
	if err != nil {
		t.Fatal(err)
	}
	if res.Script.Prompts == 0 {
		t.Fatal("script drew no prompts")
	}
	byName := map[string]Score{}
	for _, s := range res.Scores {
		byName[s.Name] = s
		if _, ok := SeedRows[s.Name]; !ok && !strings.HasPrefix(s.Name, "ours") {
			t.Errorf("row %q has no seed reference", s.Name)
		}
	}
	ours := res.Scores[0]
	for _, s := range []Score{ours, byName["screen rules, 700 ms sweep"]} {
		if s.Misses != 0 || s.FPWorkN != 0 || s.FPIdleN != 0 || s.Prompts != res.Script.Prompts {
			t.Errorf("%s: misses %d, false positives %d+%d, prompts %d/%d", s.Name, s.Misses, s.FPWorkN, s.FPIdleN, s.Prompts, res.Script.Prompts)
		}
	}
	if q := byName["output quiet ≥ 0.5s"]; q.FPWorkN == 0 || q.FPIdleN == 0 {
		t.Errorf("quiet timer should fire on silent tool calls and turn ends: %+v", q)
	}
	if q := byName[`screen line ends with "?"`]; q.FPIdleN == 0 {
		t.Errorf(`"?" heuristic should fire on "Would you like me to…?": %+v`, q)
	}
	if tail := byName["same rules, last 8 KB stripped"]; tail.Residual < time.Second {
		t.Errorf("the byte tail should keep an answered prompt: residual %v", tail.Residual)
	}
}

func TestScore(t *testing.T) {
	s := time.Second
	var truth truthLine
	truth.set(0, detect.Working)
	truth.set(10*s, detect.Blocked)
	truth.set(15*s, detect.Working)
	truth.set(20*s, detect.Idle)
	truth.set(30*s, detect.Blocked)
	truth.set(32*s, detect.Idle)
	var det series
	det.set(2*s, true) // false positive while working, 1 s
	det.set(3*s, false)
	det.set(11*s, true) // prompt 1 after 1 s, kept 2 s after the answer
	det.set(17*s, false)
	det.set(25*s, true) // false positive while idle that runs into prompt 2, then 4 s residual
	det.set(36*s, false)
	sc := score("x", &det, &truth, 40*s)
	want := Score{Prompts: 2, Misses: 0, FPWorkN: 1, FPWork: s, FPIdleN: 1, FPIdle: 5 * s, Residual: 3 * s, ResidMax: 4 * s}
	if sc.Prompts != want.Prompts || sc.Misses != want.Misses || sc.FPWorkN != want.FPWorkN || sc.FPWork != want.FPWork ||
		sc.FPIdleN != want.FPIdleN || sc.FPIdle != want.FPIdle || sc.Residual != want.Residual || sc.ResidMax != want.ResidMax {
		t.Fatalf("score = %+v\nwant  %+v", sc, want)
	}
	if sc.Median() != s/2 || sc.Max() != s {
		t.Fatalf("latencies %v", sc.Latencies)
	}
	var never series
	if m := score("never", &never, &truth, 40*s); m.Misses != 2 || m.Median() != -1 {
		t.Fatalf("never: %+v", m)
	}
}

func TestStrippedTailAndWords(t *testing.T) {
	raw := "\x1b[2J" + words("Do you want to proceed?", 1) + "\r\n" + words("❯ 1. Yes", 1) + "\r\nspin\rspun"
	got := strippedTail([]byte(raw))
	if got != "Doyouwanttoproceed?\n❯1.Yes\nspun" {
		t.Fatalf("strippedTail = %q", got)
	}
}
