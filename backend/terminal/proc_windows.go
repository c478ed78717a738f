//go:build windows

package terminal

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

const defaultShell = "powershell.exe"

// conPTY is a child process on a Windows pseudo console. The child is put
// in a job object that kills every process it started when the pane is
// closed — the Windows counterpart of ending the Unix session.
type conPTY struct {
	console  windows.Handle
	job      windows.Handle
	proc     windows.Handle
	pid      int
	in       *os.File // we write: the console's input
	out      *os.File // we read: the console's output
	closeMu  sync.Mutex
	closed   bool
	exitCode int
}

func startPTY(o Options) (ptyProc, error) {
	var inR, inW, outR, outW windows.Handle
	if err := windows.CreatePipe(&inR, &inW, nil, 0); err != nil {
		return nil, fmt.Errorf("creating console input pipe: %w", err)
	}
	if err := windows.CreatePipe(&outR, &outW, nil, 0); err != nil {
		windows.CloseHandle(inR)
		windows.CloseHandle(inW)
		return nil, fmt.Errorf("creating console output pipe: %w", err)
	}
	var console windows.Handle
	size := windows.Coord{X: int16(o.Cols), Y: int16(o.Rows)}
	if err := windows.CreatePseudoConsole(size, inR, outW, 0, &console); err != nil {
		for _, h := range []windows.Handle{inR, inW, outR, outW} {
			windows.CloseHandle(h)
		}
		return nil, fmt.Errorf("creating pseudo console (needs Windows 10 1809 or later): %w", err)
	}
	// The console owns its ends of the pipes now.
	windows.CloseHandle(inR)
	windows.CloseHandle(outW)

	c := &conPTY{console: console, in: os.NewFile(uintptr(inW), "conpty-in"), out: os.NewFile(uintptr(outR), "conpty-out")}
	if err := c.spawn(o); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *conPTY) spawn(o Options) error {
	attrs, err := windows.NewProcThreadAttributeList(1)
	if err != nil {
		return fmt.Errorf("allocating process attributes: %w", err)
	}
	defer attrs.Delete()
	// The attribute's value is the console handle itself, not a pointer to
	// it; reinterpret the handle's bits rather than convert a uintptr.
	hpc := *(*unsafe.Pointer)(unsafe.Pointer(&c.console))
	if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE, hpc, unsafe.Sizeof(c.console)); err != nil {
		return fmt.Errorf("attaching pseudo console: %w", err)
	}
	exe, err := lookPath(o.Argv[0], o.Env)
	if err != nil {
		return fmt.Errorf("finding %s: %w", o.Argv[0], err)
	}
	// Arguments are quoted per the Windows rules, one by one: no shell
	// ever parses them.
	cmdline, err := windows.UTF16PtrFromString(windows.ComposeCommandLine(append([]string{exe}, o.Argv[1:]...)))
	if err != nil {
		return fmt.Errorf("encoding command line: %w", err)
	}
	dir, err := windows.UTF16PtrFromString(o.Dir)
	if err != nil {
		return fmt.Errorf("encoding folder: %w", err)
	}
	env := createEnvBlock(o.Env)
	si := &windows.StartupInfoEx{ProcThreadAttributeList: attrs.List()}
	si.Cb = uint32(unsafe.Sizeof(*si))
	var pi windows.ProcessInformation
	flags := uint32(windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_UNICODE_ENVIRONMENT | windows.CREATE_SUSPENDED)
	if err := windows.CreateProcess(nil, cmdline, nil, nil, false, flags, &env[0], dir, &si.StartupInfo, &pi); err != nil {
		return fmt.Errorf("starting %s: %w", o.Argv[0], err)
	}
	c.proc, c.pid = pi.Process, int(pi.ProcessId)
	// A job with kill-on-close holds the child and all its descendants.
	if job, err := windows.CreateJobObject(nil, nil); err == nil {
		info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
		windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
			uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
		if windows.AssignProcessToJobObject(job, pi.Process) == nil {
			c.job = job
		} else {
			windows.CloseHandle(job)
		}
	}
	windows.ResumeThread(pi.Thread)
	windows.CloseHandle(pi.Thread)
	return nil
}

func createEnvBlock(env []string) []uint16 {
	var b []uint16
	for _, kv := range env {
		u, err := windows.UTF16FromString(kv)
		if err != nil {
			continue // a variable with a NUL cannot be passed
		}
		b = append(b, u...)
	}
	if len(b) == 0 {
		b = append(b, 0)
	}
	return append(b, 0)
}

func (c *conPTY) Read(b []byte) (int, error)  { return c.out.Read(b) }
func (c *conPTY) Write(b []byte) (int, error) { return c.in.Write(b) }
func (c *conPTY) Pid() int                    { return c.pid }

func (c *conPTY) Resize(cols, rows int) error {
	if err := windows.ResizePseudoConsole(c.console, windows.Coord{X: int16(cols), Y: int16(rows)}); err != nil {
		return fmt.Errorf("resizing pseudo console: %w", err)
	}
	return nil
}

func (c *conPTY) Wait() (int, error) {
	if c.proc == 0 {
		return -1, errors.New("process not started")
	}
	if _, err := windows.WaitForSingleObject(c.proc, windows.INFINITE); err != nil {
		return -1, fmt.Errorf("waiting for process: %w", err)
	}
	var code uint32
	if err := windows.GetExitCodeProcess(c.proc, &code); err != nil {
		return -1, fmt.Errorf("reading exit code: %w", err)
	}
	// Closing the console ends the output pipe so the read loop finishes.
	c.closeConsole()
	return int(code), nil
}

// Foreground has no process-group notion on Windows consoles; it reports
// the pane's own program.
func (c *conPTY) Foreground() (int, string) { return c.pid, "" }

// Kill ends the job (the child and everything it started).
func (c *conPTY) Kill(time.Duration) {
	if c.job != 0 {
		windows.TerminateJobObject(c.job, 1)
	} else if c.proc != 0 {
		windows.TerminateProcess(c.proc, 1)
	}
}

func (c *conPTY) closeConsole() {
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	if c.console != 0 {
		windows.ClosePseudoConsole(c.console)
		c.console = 0
	}
}

func (c *conPTY) Close() error {
	c.closeConsole()
	c.closeMu.Lock()
	defer c.closeMu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.in.Close()
	c.out.Close()
	for _, h := range []windows.Handle{c.proc, c.job} {
		if h != 0 {
			windows.CloseHandle(h)
		}
	}
	return nil
}

// processCommand: Windows consoles have no foreground process group; the
// rail shows the pane's own command.
func processCommand(int) string { return "" }
