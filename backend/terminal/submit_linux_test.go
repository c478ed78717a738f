package terminal

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// laggyPrompt is the pane program of TestSubmitWaitsForTheEcho when the test
// binary runs as it: a prompt in raw mode (it echoes what it reads itself,
// as Claude Code does) that draws more of its own screen half a second in
// and reads for the first time a second after that, as an agent starting
// or lagging on a busy machine. It says how the Enter came: on
// its own (SUBMITTED) or in one read with the text (ONE-BURST), which a
// paste-detecting prompt takes for a new line in a paste.
func laggyPrompt() {
	fd := int(os.Stdin.Fd())
	if t, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
		t.Lflag &^= unix.ECHO | unix.ICANON
		t.Iflag &^= unix.ICRNL
		unix.IoctlSetTermios(fd, unix.TCSETS, t) //nolint:errcheck // the test fails on the echo if it did not take
	}
	fmt.Print("ready> ")
	time.Sleep(500 * time.Millisecond)
	fmt.Print("\x1b7\x1b[3;1Hloading the conversation\x1b8")
	time.Sleep(time.Second)
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return
		}
		b := buf[:n]
		switch {
		case bytes.Equal(b, []byte("\r")):
			fmt.Print("\r\nSUBMITTED\r\n")
		case bytes.Contains(b, []byte("\r")):
			fmt.Print("\r\nONE-BURST\r\n")
		default:
			os.Stdout.Write(b) //nolint:errcheck // the pane reads it
		}
	}
}

func init() {
	if os.Getenv("OSF_LAGGY_PROMPT") == "1" {
		laggyPrompt()
		os.Exit(0)
	}
}

// The Enter of a line submitted to an agent comes on its own, after the
// agent drew the text, however late the agent reads it.
func TestSubmitWaitsForTheEcho(t *testing.T) {
	m := NewManager(nil)
	defer m.CloseAll()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	info, err := m.Create(Options{Dir: t.TempDir(), Argv: []string{exe},
		Env: append(os.Environ(), "OSF_LAGGY_PROMPT=1"), Cols: 100, Rows: 10})
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Get(info.ID)
	if err != nil {
		t.Fatal(err)
	}
	screen := func() string { return strings.Join(p.Screen().Lines, "\n") }
	for end := time.Now().Add(10 * time.Second); !strings.Contains(screen(), "ready>"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the prompt did not start:\n%s", screen())
		}
	}
	msg := "Review comments on osf/later — please address each: (1) menu.md:3 — Cake only on Fridays."
	if err := p.Submit(msg); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s := screen()
		if strings.Contains(s, "ONE-BURST") {
			t.Fatalf("the Enter came in one read with the text, before the prompt drew it:\n%s", s)
		}
		if strings.Contains(s, "SUBMITTED") {
			if !strings.Contains(strings.ReplaceAll(s, "\n", ""), "Cake only on Fridays.") {
				t.Errorf("the text was not drawn before the Enter:\n%s", s)
			}
			return
		}
		if time.Now().After(end) {
			t.Fatalf("no Enter reached the prompt:\n%s", s)
		}
	}
}
