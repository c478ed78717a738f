package instance

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/filelock"
)

func claim(t *testing.T, dir string) *Instance {
	t.Helper()
	inst, err := Claim(dir, Launch{}, time.Second)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	t.Cleanup(inst.Close)
	return inst
}

func TestSecondLaunchIsHandedToTheRunningInstance(t *testing.T) {
	dir := t.TempDir()
	inst := claim(t, dir)
	got := make(chan Launch, 2)
	inst.Handle(func(l Launch) { got <- l })

	_, err := Claim(dir, Launch{Args: []string{"osfoundry://pane/p-3?t=00"}, Dir: "/work"}, time.Second)
	if !errors.Is(err, ErrForwarded) {
		t.Fatalf("second Claim = %v, want ErrForwarded", err)
	}
	select {
	case l := <-got:
		if len(l.Args) != 1 || l.Args[0] != "osfoundry://pane/p-3?t=00" || l.Dir != "/work" {
			t.Fatalf("handed %+v", l)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the running instance never got the launch")
	}
}

func TestLaunchBeforeHandleIsKept(t *testing.T) {
	dir := t.TempDir()
	inst := claim(t, dir)
	if _, err := Claim(dir, Launch{Args: []string{"a"}}, time.Second); !errors.Is(err, ErrForwarded) {
		t.Fatalf("second Claim = %v", err)
	}
	got := make(chan Launch, 1)
	inst.Handle(func(l Launch) { got <- l })
	if l := <-got; len(l.Args) != 1 || l.Args[0] != "a" {
		t.Fatalf("handed %+v", l)
	}
}

func TestClosedInstanceFreesTheFolder(t *testing.T) {
	dir := t.TempDir()
	inst, err := Claim(dir, Launch{}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	inst.Close()
	if _, err := os.Stat(filepath.Join(dir, infoName)); !os.IsNotExist(err) {
		t.Fatalf("instance.json left behind: %v", err)
	}
	claim(t, dir) // a stale lock file does not block the next start
}

func TestInfoFileIsOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	claim(t, dir)
	st, err := os.Stat(filepath.Join(dir, infoName))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("instance.json mode %v, want owner-only", st.Mode().Perm())
	}
}

// send writes one raw line to the instance and returns its answer.
func send(t *testing.T, dir, line string) string {
	t.Helper()
	var in info
	b, _ := os.ReadFile(filepath.Join(dir, infoName))
	json.Unmarshal(b, &in)
	c, err := net.Dial("tcp", in.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	go c.Write([]byte(line))
	buf := make([]byte, 200)
	n, _ := c.Read(buf)
	return string(buf[:n])
}

func TestWrongSecretAndJunkAreRefused(t *testing.T) {
	dir := t.TempDir()
	inst := claim(t, dir)
	handed := make(chan Launch, 4)
	inst.Handle(func(l Launch) { handed <- l })

	cases := map[string]string{
		"wrong secret":  `{"secret":"` + strings.Repeat("ab", 32) + `","args":["x"]}` + "\n",
		"no secret":     `{"args":["x"]}` + "\n",
		"short secret":  `{"secret":"ab","args":["x"]}` + "\n",
		"not json":      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
		"huge line":     `{"secret":"` + strings.Repeat("a", maxMessage+10) + "\"}\n",
		"no line break": `{"args":["x"]}`,
	}
	for name, line := range cases {
		t.Run(name, func(t *testing.T) {
			if got := send(t, dir, line); !strings.HasPrefix(got, "refused") {
				t.Fatalf("answer %q, want a refusal", got)
			}
		})
	}
	select {
	case l := <-handed:
		t.Fatalf("a refused message reached the app: %+v", l)
	default:
	}
}

func TestLockHeldButNobodyAnswers(t *testing.T) {
	dir := t.TempDir()
	lock, err := filelock.TryLock(filepath.Join(dir, lockName))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	// An address nobody listens on, as after the other instance's listener
	// failed.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	b, _ := json.Marshal(info{Addr: addr, Secret: "00"})
	os.WriteFile(filepath.Join(dir, infoName), b, 0o600)

	_, err = Claim(dir, Launch{}, 300*time.Millisecond)
	if err == nil || errors.Is(err, ErrForwarded) || !strings.Contains(err.Error(), "OSFOUNDRY_HOME") {
		t.Fatalf("Claim = %v, want an error that says what to do", err)
	}
}

func TestInfoNotOnLoopbackIsNotContacted(t *testing.T) {
	dir := t.TempDir()
	lock, _ := filelock.TryLock(filepath.Join(dir, lockName))
	defer lock.Close()
	b, _ := json.Marshal(info{Addr: "192.0.2.1:80", Secret: "00"})
	os.WriteFile(filepath.Join(dir, infoName), b, 0o600)
	_, err := Claim(dir, Launch{}, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "not on loopback") {
		t.Fatalf("Claim = %v, want a refusal without waiting", err)
	}
}
