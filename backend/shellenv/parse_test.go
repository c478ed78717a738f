package shellenv

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBetween(t *testing.T) {
	const m = "_OSF_ENV_abc_"
	tests := []struct {
		name string
		out  string
		want string
		ok   bool
	}{
		{"plain", m + "A=1\x00" + m, "A=1\x00", true},
		{"noise around", "hello\xff\xfe" + m + "A=1\x00" + m + "bye", "A=1\x00", true},
		{"look-alike marker before", "_OSF_ENV_000_" + m + "A=1\x00" + m, "A=1\x00", true},
		{"one marker", "x" + m + "A=1", "", false},
		{"none", "A=1", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := between([]byte(tt.out), m)
			if ok != tt.ok || string(got) != tt.want {
				t.Fatalf("between = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestMarkerBufAcrossWrites(t *testing.T) {
	const m = "_OSF_ENV_abc_"
	b := &markerBuf{marker: m, got: make(chan struct{})}
	stream := "noise _OSF_ENV_ab" + m + "PATH=/x\x00" + m + "tail"
	for i := 0; i < len(stream); i += 3 { // markers split over writes
		b.Write([]byte(stream[i:min(i+3, len(stream))]))
	}
	select {
	case <-b.got:
	default:
		t.Fatal("got not closed after both markers were written")
	}
	if data, _ := b.between(); string(data) != "PATH=/x\x00" {
		t.Fatalf("between = %q", data)
	}
}

func TestParseEnv(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"nul separated, value with newline and =", "PATH=/a:/b\x00X=1\n2\x00Y=a=b\x00", map[string]string{"PATH": "/a:/b", "X": "1\n2", "Y": "a=b"}},
		{"bad names skipped", "1A=x\x00=y\x00B-C=z\x00OK=1\x00", map[string]string{"OK": "1"}},
		{"newline fallback with continuation", "PATH=/a\nX=1\n2\nY=3\n", map[string]string{"PATH": "/a", "X": "1\n2", "Y": "3\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseEnv([]byte(tt.in))
			if len(got) != len(tt.want) {
				t.Fatalf("parseEnv = %q, want %q", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Fatalf("parseEnv[%s] = %q, want %q (all: %q)", k, got[k], v, got)
				}
			}
		})
	}
}

func TestClean(t *testing.T) {
	in := "bash: cannot set terminal process group (1): Inappropriate ioctl for device\nbash: no job control in this shell\n\x1b[31mboom\xff\x00 here\nsecond\n"
	if got := clean([]byte(in), 300); got != "boom here / second" {
		t.Fatalf("clean = %q", got)
	}
	if got := clean([]byte(strings.Repeat("é", 100)), 11); got != "ééééé…" {
		t.Fatalf("clean cut = %q", got)
	}
}

func TestExpand(t *testing.T) {
	vars := map[string]string{"USERPROFILE": `C:\Users\me`, "SystemRoot": `C:\Windows`}
	lookup := func(n string) (string, bool) { v, ok := vars[n]; return v, ok }
	tests := []struct{ in, want string }{
		{`%USERPROFILE%\AppData\Roaming\npm`, `C:\Users\me\AppData\Roaming\npm`},
		{`%SystemRoot%\system32;%USERPROFILE%\bin`, `C:\Windows\system32;C:\Users\me\bin`},
		{`%NOPE%\x`, `%NOPE%\x`},
		{`100%`, `100%`},
		{`%%`, `%%`},
		{`a%NOPE%b%SystemRoot%`, `a%NOPE%bC:\Windows`},
	}
	for _, tt := range tests {
		if got := expand(tt.in, lookup); got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPlan(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	for _, d := range []string{a, b, c} {
		os.Mkdir(d, 0o755)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	missing := filepath.Join(dir, "missing")
	sep := string(os.PathListSeparator)
	cur := map[string]string{"PATH": b + sep + c + sep + file, "LANG": "C.UTF-8", "EMPTY_OK": ""}
	lookup := func(n string) (string, bool) { v, ok := cur[n]; return v, ok }
	login := map[string]string{
		"PATH":              a + sep + file + sep + "relative" + sep + b + sep + missing + sep + a + "/",
		"LANG":              "de_DE.UTF-8", // present here: kept
		"NVM_DIR":           "/home/me/.nvm",
		"ANTHROPIC_API_KEY": "sk-secret", // never copied
		"GITHUB_TOKEN":      "ghp_x",
	}
	p := plan(lookup, login)
	want := [][2]string{{"PATH", a + sep + b + sep + c}, {"NVM_DIR", "/home/me/.nvm"}}
	if !slices.Equal(p.set, want) {
		t.Fatalf("set = %q, want %q", p.set, want)
	}
	if !slices.Equal(p.added, []string{a}) {
		t.Errorf("added = %q", p.added)
	}
	if !slices.Equal(p.dropped, []string{file, "relative", missing}) {
		t.Errorf("dropped = %q", p.dropped)
	}
	if !slices.Equal(p.names(), []string{"NVM_DIR"}) {
		t.Errorf("names = %q", p.names())
	}
}

func TestUsableAndReason(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	sep := string(os.PathListSeparator)
	tests := []struct {
		name          string
		path          string
		checkTerminal bool
		terminal      bool
		want          string
	}{
		{"unset", "", false, false, "PATH unusable"},
		{"only a file and a missing folder", file + sep + filepath.Join(dir, "nope"), false, true, "PATH unusable"},
		{"only relative", "bin" + sep + ".", false, false, "PATH unusable"},
		{"usable, command line", dir, false, false, ""},
		{"usable, window from a terminal", dir, true, true, ""},
		{"usable, window from a desktop entry", dir, true, false, "no terminal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Reason(tt.checkTerminal, tt.terminal, tt.path); got != tt.want {
				t.Fatalf("Reason = %q, want %q", got, tt.want)
			}
		})
	}
}
