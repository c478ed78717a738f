package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A job file is a small regular file: a device, a FIFO or something of
// many megabytes is refused with what to give instead, at once (before,
// /dev/zero ran out of memory, a FIFO waited forever for a writer and a
// 150 MB file took 1.4 GB). Limits past any sense are refused instead of
// overflowing into a time limit that stops the job at once.
func TestRunJobFileMustBeSmallAndRegular(t *testing.T) {
	t.Setenv("OSFOUNDRY_HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"tasks":[`)
	if err := f.Truncate(5 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tests := []jobFileCase{
		{name: "a folder", args: []string{"--fleet", dir}, want: "not a regular file (d"},
		{name: "over 4 MB", args: []string{"--fleet", big}, want: "more than a job file's 4 MB"},
		{name: "over 4 MB on stdin", args: []string{"--fleet", "-"}, stdin: `{"tasks":[` + strings.Repeat(" ", 5<<20), want: "more than a job file's 4 MB"},
		{name: "maxSeconds past 292 years", args: []string{"--fleet", jobFile(t, `{"tasks":[{"role":"Worker","prompt":"x"}],"limits":{"maxSeconds":9300000000000}}`)}, want: "maxSeconds must be 0 (no limit) or between 1 and 604800"},
		{name: "--limit past 7 days", args: []string{"--limit", "200h", "--fleet", jobFile(t, `{"tasks":[{"role":"Worker","prompt":"x"}]}`)}, want: "between 1 and 604800 (7 days)"},
		{name: "concurrency", args: []string{"--concurrency", "100000", "--fleet", jobFile(t, `{"tasks":[{"role":"Worker","prompt":"x"}]}`)}, want: "concurrency must be 0 (all at once) or between 1 and 64"},
		{name: "spend NaN", args: []string{"--max-spend", "NaN", "--fleet", jobFile(t, `{"tasks":[{"role":"Worker","prompt":"x"}]}`)}, want: "maxSpendUSD must be 0"},
	}
	tests = append(tests, specialFiles(t, dir)...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"run", "--model", "cli:claude:agent", "--folder", dir}, tc.args...)
			code := Run(&Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(tc.stdin)}, args)
			if code != 2 || !strings.Contains(errb.String(), tc.want) || strings.Contains(errb.String(), "started") {
				t.Fatalf("exit %d stderr %q, want 2 and %q", code, errb.String(), tc.want)
			}
		})
	}
}

type jobFileCase struct {
	name, stdin, want string
	args              []string
}
