package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
	"github.com/osfoundry/desktop/rules"
)

func registry(t *testing.T) *detect.Registry {
	t.Helper()
	reg, problems, err := detect.Load(rules.Files, "")
	if err != nil || len(problems) > 0 {
		t.Fatalf("loading rules: %v %v", err, problems)
	}
	return reg
}

// captureDirs hold the harness's recordings of the real CLIs (make fixtures).
var captureDirs = []string{filepath.Join("..", "..", "testkit", "fixtures", "testdata")}

func captures() []string {
	var files []string
	for _, d := range captureDirs {
		f, _ := filepath.Glob(filepath.Join(d, "*.raw"))
		files = append(files, f...)
	}
	return files
}

// Every recorded capture is classified as its name says.
func TestRecordedFixtures(t *testing.T) {
	dir := strings.Join(captureDirs, " and ")
	files := captures()
	var named []string
	for _, f := range files {
		if _, st := ParseName(filepath.Base(f)); st != "" {
			named = append(named, f)
		}
	}
	if len(named) == 0 {
		t.Skipf("no recorded captures named <agent>-<version>.<state>[.<variant>].raw in %s yet", dir)
	}
	reg := registry(t)
	for _, f := range named {
		t.Run(filepath.Base(f), func(t *testing.T) {
			// Big reads, and small odd ones that split escape sequences and
			// runes and put many evaluations mid-redraw.
			for _, chunk := range []int{4096, 331} {
				res, err := File(reg, f, Options{Agent: "auto", Chunk: chunk})
				if err != nil {
					t.Fatal(err)
				}
				if !res.OK() {
					t.Errorf("reads of %d bytes: got %s (%s), want %s; screen:\n%s", chunk, res.Decision.State, res.Decision, res.Expected, strings.Join(res.Lines, "\n"))
				}
			}
		})
	}
}

// The screen rules alone — a pane whose agent sends no reports — must
// still never miss a prompt nor show one that is not there. (Working vs
// idle may differ: Codex hides its working line while it streams, which its
// OSC 7501 report covers.)
func TestRecordedFixturesScreenOnly(t *testing.T) {
	dir := strings.Join(captureDirs, " and ")
	files := captures()
	reg := registry(t)
	n := 0
	for _, f := range files {
		agent, want := ParseName(filepath.Base(f))
		rs := reg.Get(resolveHint(reg, agent))
		if want == "" || rs == nil {
			continue
		}
		n++
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		emu := terminal.NewEmulator(120, 32)
		emu.Write(b)
		d := rs.Evaluate(emu.Lines())
		if (d.State == detect.Blocked) != (want == string(detect.Blocked)) {
			t.Errorf("%s: screen rules say %s (%s), capture is %s", filepath.Base(f), d.State, d, want)
		}
	}
	if n == 0 {
		t.Skipf("no recorded captures in %s yet", dir)
	}
}

func TestParseName(t *testing.T) {
	cases := []struct {
		name, agent string
		state       string
	}{
		{"claude-2.1.328.blocked.edit.raw", "claude", "blocked"},
		{"claude.blocked.raw", "claude", "blocked"},
		{"codex-0.169.0.working.raw", "codex", "working"},
		{"gemini-cli-0.9.1.idle.after.raw", "gemini-cli", "idle"},
		{"claude-fullscreen-2.1.328.after-answer.question.raw", "claude-fullscreen", NotBlocked},
		{"codex-inline-0.169.0.interrupted.raw", "codex-inline", "idle"},
		{"claude-2.1.328.startup.raw", "claude", ""},
		{"session.raw", "session", ""},
	}
	for _, c := range cases {
		a, s := ParseName(c.name)
		if a != c.agent || s != c.state {
			t.Errorf("ParseName(%q) = %q, %q; want %q, %q", c.name, a, s, c.agent, c.state)
		}
	}
	for hint, want := range map[string]string{"gemini-cli": "gemini", "claude-fullscreen": "claude", "codex-inline": "codex", "aider": ""} {
		if got := resolveHint(registry(t), hint); got != want {
			t.Errorf("resolveHint(%s) = %q, want %q", hint, got, want)
		}
	}
}

// The Claude Code bytes quoted in seed 004: words placed with CSI n G and no
// "\n" at all. Only an emulated screen sees the prompt.
const claudeProceed = "\r\x1b[1C\x1b[1B\x1b[39mDo\x1b[5Gyou\x1b[9Gwant\x1b[14Gto\x1b[17Gproceed?" +
	"\r\x1b[1C\x1b[1B\x1b[38;2;177;185;249m❯\x1b[4G\x1b[38;2;153;153;153m1. \x1b[38;2;177;185;249mYes" +
	"\r\x1b[3C\x1b[1B\x1b[38;2;153;153;153m2. \x1b[39mYes,\x1b[12Gand\x1b[16Galways\x1b[23Gallow"

func TestReplaySizesAndHostileBytes(t *testing.T) {
	reg := registry(t)
	junk := bytes.Repeat([]byte("🎉한\u0301\x1b[999;999H\x1b[2J\x1b]0;⠂\x07\x1b]7501;state=working\x07"), 500)
	cases := []struct {
		name       string
		data       string
		cols, rows int
		agent      string
		want       detect.State
	}{
		{"claude prompt 120x32", claudeProceed, 120, 32, "claude", detect.Blocked},
		{"claude prompt 500x200", claudeProceed, 500, 200, "claude", detect.Blocked},
		{"claude prompt 1x1", claudeProceed, 1, 1, "claude", detect.Idle},
		{"junk 1x1", string(junk), 1, 1, "claude", detect.Working},
		{"junk 500x200", string(junk), 500, 200, "claude", detect.Working},
		{"prompt then erased", claudeProceed + "\x1b[2A\r\x1b[J✻ Working… (esc to interrupt)", 80, 24, "claude", detect.Working},
		{"osc blocked then screen idle", "\x1b]7501;state=blocked:app=codex:kind=permission\x07" + "› ", 80, 24, "auto", detect.Blocked},
		{"osc done", "\x1b]7501;state=working:app=codex\x07• Working (1s • esc to interrupt)\r\n\x1b]7501;state=idle:app=codex:kind=done\x07", 80, 24, "auto", detect.Idle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Reader(reg, strings.NewReader(c.data), Options{Agent: c.agent, Cols: c.cols, Rows: c.rows}, "")
			if err != nil {
				t.Fatal(err)
			}
			if res.Decision.State != c.want {
				t.Fatalf("got %s (%s), want %s; screen:\n%s", res.Decision.State, res.Decision, c.want, strings.Join(res.Lines, "\n"))
			}
		})
	}
	if _, err := Reader(reg, strings.NewReader(""), Options{Agent: "nosuch"}, ""); err == nil || !strings.Contains(err.Error(), "known: claude") {
		t.Errorf("unknown agent: %v", err)
	}
}

func TestFileErrors(t *testing.T) {
	_, err := File(registry(t), filepath.Join(t.TempDir(), "missing.raw"), Options{})
	if err == nil || !strings.Contains(err.Error(), "reading capture") {
		t.Fatalf("err = %v", err)
	}
	p := filepath.Join(t.TempDir(), "claude-2.1.0.blocked.raw")
	os.WriteFile(p, []byte(claudeProceed), 0o644)
	res, err := File(registry(t), p, Options{})
	if err != nil || !res.OK() || !strings.Contains(res.Decision.Note, "agent from file name") {
		t.Fatalf("res = %+v, %v", res, err)
	}
}

// A Codex prompt's card and notification name what it asks: Codex's own
// report says only "permission", so the rules read it off the screen.
func TestCodexPromptsNameWhatTheyAsk(t *testing.T) {
	reg := registry(t)
	dir := captureDirs[0]
	for _, c := range []struct{ file, want string }{
		{"codex-0.169.0.blocked.bash.raw", "Codex CLI wants to run: touch osf-bash.txt && echo osf-marker-$((6*7))"},
		{"codex-inline-0.169.0.blocked.bash.raw", "Codex CLI wants to run: touch osf-bash.txt && echo osf-marker-$((6*7))"},
		{"codex-0.169.0.blocked.edit.raw", "Codex CLI wants to edit /tmp/osf-fixtures/codex-0.169.0/home/notes.txt"},
		{"codex-0.169.0.blocked.mcp-tool.raw", "Codex CLI wants to use memory_search from osfoundry"},
	} {
		t.Run(c.file, func(t *testing.T) {
			res, err := File(reg, filepath.Join(dir, c.file), Options{Agent: "auto"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Decision.State != detect.Blocked || res.Decision.Message != c.want {
				t.Errorf("got %s %q, want blocked %q", res.Decision.State, res.Decision.Message, c.want)
			}
		})
	}
}
