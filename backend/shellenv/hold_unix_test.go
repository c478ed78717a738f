//go:build !windows

package shellenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A held read starts no shell until something needs the environment: the
// window holds it past its first frame. The first Wait begins it.
func TestHeldReadBeginsAtTheFirstWait(t *testing.T) {
	rd, h := heldRead(t)
	if st := rd.status(); !st.Pending || st.Reason != "no terminal" {
		t.Errorf("status of a held read = %+v; want pending, no terminal", st)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(h, "rc-ran")); err == nil {
		t.Fatal("the login shell ran while its read was held")
	}
	select {
	case <-rd.beganCh():
		t.Fatal("Began is closed before anything began the read")
	default:
	}
	res := rd.wait()
	if !res.OK || !slices.Contains(filepath.SplitList(GetIn(res.Environ(), "PATH")), filepath.Join(h, "tools", "bin")) {
		t.Fatalf("Wait on a held read = %+v; want the login shell's PATH", res)
	}
	if _, err := os.Stat(filepath.Join(h, "rc-ran")); err != nil {
		t.Error("Wait returned without the login shell having run")
	}
	select {
	case <-rd.beganCh():
	default:
		t.Error("Began is still open after the read ran")
	}
	untouched(t)
}

// A window that ends before its first frame never starts the shell it held.
func TestStopEndsAHeldReadWithoutStartingIt(t *testing.T) {
	rd, h := heldRead(t)
	rd.stop()
	res := rd.wait() // returns at once: nothing is left to begin
	if res.OK || res.Pending || res.Error == "" {
		t.Errorf("Wait after Stop of a held read = %+v; want not read, with a reason", res)
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(h, "rc-ran")); err == nil {
		t.Error("Stop started the login shell it should have dropped")
	}
	var none reader
	select {
	case <-none.beganCh():
	default:
		t.Error("Began without any read asked for is not closed")
	}
}

// heldRead holds a read of a login shell whose ~/.bashrc puts tools/bin on
// PATH and leaves rc-ran in HOME when it runs.
func heldRead(t *testing.T) (*reader, string) {
	t.Helper()
	sh := bash(t)
	isolate(t)
	h := home(t, claudeFiles(addBin+`touch "$HOME/rc-ran"`+"\n"))
	rd := &reader{}
	rd.hold(Options{Shell: sh, Home: h}, "no terminal")
	return rd, h
}
