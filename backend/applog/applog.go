// Package applog keeps the window app's output when it was started without
// a terminal (a desktop entry, Finder, Explorer): everything written to
// stdout and stderr, Go's own crash reports included, goes to a log file in
// the app data folder, kept under a size bound.
//
// The file takes over the process's own output descriptors rather than
// going through a logging library: a panic or a fatal runtime error is
// written by the Go runtime straight to descriptor 2, and that is the text
// a user most needs to send in. Rotating libraries (lumberjack) write only
// what is handed to them and so would lose exactly those reports.
package applog

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mattn/go-isatty"
)

// MaxSize bounds the log: past it the file is moved to .1 (one older file
// is kept), so the two never hold much more than twice this.
const MaxSize = 4 << 20

// checkEvery is how often a long-running app looks at the log's size.
const checkEvery = time.Minute

// StartMarker begins the line each start writes to the log.
const StartMarker = "=== osFoundry started"

// Path is the log file of the app data folder dir.
func Path(dir string) string { return filepath.Join(dir, "logs", "osfoundry.log") }

// EnvToFile is how the command line's launcher asks the window app it
// starts to write to the log file (its error stream is a pipe the launcher
// stops reading once the window is up).
const EnvToFile = "OSF_LOG_TO_FILE"

// Wanted reports whether this process's output would otherwise be lost or
// buried: no error stream at all (a Windows GUI program), /dev/null
// (Finder), the journal (a desktop session), or the launcher asked for it.
// A terminal, a pipe, a socket or a file someone reads keeps the output.
// It clears EnvToFile so the request does not pass on to panes.
func Wanted() bool {
	asked := os.Getenv(EnvToFile) == "1"
	os.Unsetenv(EnvToFile)
	if asked {
		return true
	}
	fd := os.Stderr.Fd()
	if isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd) {
		return false
	}
	st, err := os.Stderr.Stat()
	if err != nil {
		return true
	}
	switch m := st.Mode(); {
	case m&os.ModeNamedPipe != 0, m.IsRegular():
		return false
	case m&os.ModeSocket != 0:
		// systemd's journal takes a desktop session's output through a
		// socket and says so in JOURNAL_STREAM; any other socket (Node's
		// child pipes are socket pairs) has a reader.
		return os.Getenv("JOURNAL_STREAM") != ""
	}
	return true // /dev/null
}

// Redirect sends this process's stdout and stderr to the log file of dir
// and keeps the file under MaxSize while the app runs. It returns the path.
func Redirect(dir string) (string, error) {
	path := Path(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("creating the log folder: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Size() > MaxSize {
		_ = os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return "", fmt.Errorf("opening the log file %s: %w", path, err)
	}
	if err := takeOver(f); err != nil {
		f.Close()
		return "", fmt.Errorf("sending output to %s: %w", path, err)
	}
	fmt.Fprintf(f, "\n%s %s (pid %d) ===\n", StartMarker, time.Now().Format(time.RFC3339), os.Getpid())
	go keepSmall(f, path, MaxSize, checkEvery)
	return path, nil
}

// keepSmall copies the log to .1 and empties it whenever it passes max.
// The file is open for appending, so writes after the truncation start at
// its new end; no descriptor changes hands.
func keepSmall(f *os.File, path string, max int64, every time.Duration) {
	for range time.Tick(every) {
		trim(f, path, max)
	}
}

func trim(f *os.File, path string, max int64) {
	st, err := f.Stat()
	if err != nil || st.Size() <= max {
		return
	}
	if err := copyFile(path, path+".1"); err != nil {
		fmt.Fprintf(f, "osfoundry: keeping the previous log: %v\n", err)
	}
	if err := f.Truncate(0); err != nil {
		return
	}
	fmt.Fprintf(f, "=== log trimmed %s; the earlier part is in %s.1 ===\n", time.Now().Format(time.RFC3339), filepath.Base(path))
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
