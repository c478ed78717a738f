//go:build !windows

package applog

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWantedOnlyWhenNobodyReadsTheOutput(t *testing.T) {
	devnull, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	pr, pw, _ := os.Pipe()
	defer pr.Close()
	file, _ := os.Create(filepath.Join(t.TempDir(), "out"))
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	sock := os.NewFile(uintptr(pair[0]), "socket")
	defer syscall.Close(pair[1])
	cases := []struct {
		name   string
		stderr *os.File
		env    map[string]string
		want   bool
	}{
		{"/dev/null (Finder, a bare desktop entry)", devnull, nil, true},
		{"a pipe someone reads", pw, nil, false},
		{"a file someone redirected to", file, nil, false},
		{"a socket pair (Node's child pipes)", sock, nil, false},
		{"the journal of a desktop session", sock, map[string]string{"JOURNAL_STREAM": "8:1234"}, true},
		{"the launcher asks", pw, map[string]string{EnvToFile: "1"}, true},
	}
	saved := os.Stderr
	defer func() { os.Stderr = saved }()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("JOURNAL_STREAM", "")
			t.Setenv(EnvToFile, "")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			os.Stderr = c.stderr
			got := Wanted()
			os.Stderr = saved
			if got != c.want {
				t.Fatalf("Wanted() = %v, want %v", got, c.want)
			}
			if os.Getenv(EnvToFile) != "" {
				t.Fatalf("%s was left for the panes", EnvToFile)
			}
		})
	}
}
