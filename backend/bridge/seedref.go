package bridge

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// seedBridge is the reference article's per-run bridge as its article describes and
// measured it (Python's standard library, a canned memory_search answer),
// run on this machine so the bench compares against it in the same run
// rather than against a figure taken on other hardware.
//
//go:embed seed_bridge.py
var seedBridge string

// seedRef is a running seed bridge.
type seedRef struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	host  string
	token string
}

// startSeed starts the reference bridge with python3; it reports an error
// naming what is missing when python3 is not installed.
func startSeed() (*seedRef, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, errors.New("python3 is not installed: the reference article's Python bridge cannot run beside ours (install python3 to get its row)")
	}
	cmd := exec.Command(py, "-c", seedBridge)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the reference article's Python bridge: %w", err)
	}
	s := &seedRef{cmd: cmd, stdin: stdin}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	port, token, ok := strings.Cut(strings.TrimSpace(line), " ")
	if _, perr := strconv.Atoi(port); err != nil || !ok || perr != nil || len(token) != 64 {
		s.Close()
		return nil, fmt.Errorf("the reference article's Python bridge did not start (it printed %q): %v", line, err)
	}
	s.host, s.token = "127.0.0.1:"+port, token
	return s, nil
}

// Close stops the reference bridge (it serves until its stdin closes).
func (s *seedRef) Close() {
	s.stdin.Close()
	_ = s.cmd.Wait()
}
