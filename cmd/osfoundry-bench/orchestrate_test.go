package main

import (
	"bytes"
	"strings"
	"testing"
)

// The bench runs end to end on a small fleet and prints both rows beside
// their targets (the figures themselves are not asserted here).
func TestBenchOrchestratePrintsItsTable(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run(&Env{Stdout: &out, Stderr: &errb}, []string{"orchestrate", "-rounds", "1", "-children", "2", "-changes", "2"})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"fleet start overhead per child", "≤ 50 ms", "board: a child's state change → its Team card (p50 of 2)", "≤ 100 ms"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
