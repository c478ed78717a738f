package launch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/osfoundry/desktop/backend/appdir"
	"github.com/osfoundry/desktop/backend/applog"
	"github.com/osfoundry/desktop/backend/msgbox"
	"github.com/osfoundry/desktop/backend/shellenv"
)

// exitWait is how long the launcher watches a window app whose error
// stream has closed: a program the dynamic loader refuses exits at once.
const exitWait = 500 * time.Millisecond

// running is start's code for a window that is up.
const running = -1

// OpenWindow starts the window app beside this program with args (an
// osfoundry:// link, or nothing) and returns the launcher's exit code. The
// window runs on after the launcher exits. When it cannot start (the
// program is missing, or the system lacks a library it needs) the user
// gets a message box saying what to install, not a silent failure: a
// desktop entry has no terminal to print to.
func OpenWindow(args []string, stderr io.Writer) int {
	me, err := self()
	if err != nil {
		return fail(stderr, "osFoundry could not find its own program: "+err.Error())
	}
	return openBeside(me, args, stderr)
}

func openBeside(me string, args []string, stderr io.Writer) int {
	win := firstFile(siblings(filepath.Dir(me), WindowName))
	if win == "" {
		return fail(stderr, fmt.Sprintf("The osFoundry window app (%s) is not installed beside %s.\n\n"+
			"Reinstall osFoundry, or run `osfoundry help` for the commands that work without a window.", exe(WindowName), me))
	}
	code, out, err := start(win, args)
	if err != nil {
		return fail(stderr, fmt.Sprintf("osFoundry could not start %s: %v", win, err))
	}
	switch code {
	case running, 0:
		return 0
	case ExitShown:
		return code
	}
	if strings.TrimSpace(out) == "" {
		// The window had moved its output to its log before it stopped.
		out = lastStart(logTail())
	}
	return fail(stderr, Explain(code, out))
}

// logTail is the end of the window app's log file, or "".
func logTail() string {
	dir, err := appdir.Dir()
	if err != nil {
		return ""
	}
	f, err := os.Open(applog.Path(dir))
	if err != nil {
		return ""
	}
	defer f.Close()
	const tail = 16 << 10
	if st, err := f.Stat(); err == nil && st.Size() > tail {
		_, _ = f.Seek(-tail, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	return string(b)
}

// lastStart keeps what the last start wrote to the log.
func lastStart(log string) string {
	if i := strings.LastIndex(log, applog.StartMarker); i >= 0 {
		log = log[i:]
		if j := strings.IndexByte(log, '\n'); j >= 0 {
			log = log[j+1:]
		}
	}
	return log
}

// start runs the window app detached from this program's terminal, its
// error stream on a pipe. The app moves its own output to its log file as
// it starts, which closes the pipe; a start that fails before that (the
// loader's "error while loading shared libraries") leaves its words on the
// pipe and an exit code. The code is running while the app runs on.
func start(win string, args []string) (int, string, error) {
	cmd := exec.Command(win, args...)
	cmd.Env = append(os.Environ(), applog.EnvToFile+"=1")
	if isatty.IsTerminal(os.Stdin.Fd()) {
		// Typed in a terminal: its PATH is the user's already; the window
		// need not read the login shell for one.
		cmd.Env = append(cmd.Env, shellenv.EnvFromTerminal+"=1")
	}
	detach(cmd)
	var errOut bytes.Buffer
	pr, pw, err := os.Pipe()
	if err != nil {
		return 0, "", err
	}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return 0, "", err
	}
	pw.Close()
	// Keep at most 64 KiB: a loader error is one line.
	_, _ = io.Copy(&errOut, io.LimitReader(pr, 64<<10))
	pr.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), errOut.String(), nil
		}
		return 0, errOut.String(), err
	case <-time.After(exitWait):
		_ = cmd.Process.Release()
		return running, errOut.String(), nil
	}
}

// Explain turns a failed start into words that say what to do.
func Explain(code int, stderr string) string {
	out := strings.TrimSpace(stderr)
	switch {
	case strings.Contains(out, "libwebkit2gtk-4.1"):
		return "osFoundry needs WebKitGTK 4.1 to draw its window, and this system does not have it.\n\n" +
			"Install it, then start osFoundry again:\n  Debian/Ubuntu: sudo apt install libwebkit2gtk-4.1-0\n  Fedora: sudo dnf install webkit2gtk4.1\n\n" + out
	case strings.Contains(out, "libgtk-3"):
		return "osFoundry needs GTK 3, and this system does not have it.\n\n" +
			"Install it, then start osFoundry again:\n  Debian/Ubuntu: sudo apt install libgtk-3-0\n  Fedora: sudo dnf install gtk3\n\n" + out
	case strings.Contains(out, "failed to init GTK"):
		return "osFoundry could not open a window on this display. Start it from your desktop session (DISPLAY or WAYLAND_DISPLAY must be set and usable).\n\n" + out
	case strings.Contains(out, "error while loading shared libraries"):
		return "osFoundry could not start: a library it needs is missing.\n\n" + out
	case out == "":
		return fmt.Sprintf("osFoundry stopped as it started (exit code %d) without saying why. Its log file is osfoundry/logs/osfoundry.log in your config folder.", code)
	}
	return fmt.Sprintf("osFoundry could not start (exit code %d):\n\n%s", code, out)
}

// fail tells the user twice: on the terminal, if there is one, and in a
// message box, which is all a double-click can see.
func fail(stderr io.Writer, msg string) int {
	fmt.Fprintln(stderr, "osfoundry:", msg)
	if err := msgbox.Show("osFoundry could not start", msg); err != nil {
		fmt.Fprintln(stderr, "osfoundry: (no message box either:", err.Error()+")")
	}
	return 1
}
