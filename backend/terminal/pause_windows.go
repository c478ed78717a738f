//go:build windows

package terminal

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has no SIGSTOP: a pane is paused by suspending every process in
// its job object with NtSuspendProcess (the call Process Explorer and
// Resource Monitor use), and resumed with NtResumeProcess. Both count, so
// each pause is matched by exactly one resume (the Pane guards that).
var (
	ntdll                = windows.NewLazySystemDLL("ntdll.dll")
	procNtSuspendProcess = ntdll.NewProc("NtSuspendProcess")
	procNtResumeProcess  = ntdll.NewProc("NtResumeProcess")
)

// CanPause: only a pane whose processes are held by a job object can be
// paused as a whole (without it, children the program started would run on).
func (c *conPTY) CanPause() bool {
	return c.job != 0 && procNtSuspendProcess.Find() == nil && procNtResumeProcess.Find() == nil
}

func (c *conPTY) Pause() error {
	if !c.CanPause() {
		return ErrPauseUnsupported
	}
	// Suspend until no new process shows up in the job: a process may
	// have been starting while the list was read.
	done := map[uint32]bool{}
	for round := 0; round < 5; round++ {
		pids, err := c.jobPids()
		if err != nil {
			c.resumeAll(done)
			return err
		}
		fresh := 0
		for _, pid := range pids {
			if done[pid] {
				continue
			}
			fresh++
			if err := ntProcessCall(procNtSuspendProcess, pid); err != nil {
				if errors.Is(err, errGone) {
					continue
				}
				c.resumeAll(done)
				return fmt.Errorf("pausing process %d: %w", pid, err)
			}
			done[pid] = true
		}
		if fresh == 0 {
			return nil
		}
	}
	return nil
}

func (c *conPTY) resumeAll(pids map[uint32]bool) {
	for pid := range pids {
		_ = ntProcessCall(procNtResumeProcess, pid)
	}
}

func (c *conPTY) Resume() error {
	if !c.CanPause() {
		return ErrPauseUnsupported
	}
	pids, err := c.jobPids()
	if err != nil {
		return err
	}
	var first error
	for _, pid := range pids {
		if err := ntProcessCall(procNtResumeProcess, pid); err != nil && !errors.Is(err, errGone) && first == nil {
			first = fmt.Errorf("resuming process %d: %w", pid, err)
		}
	}
	return first
}

var errGone = errors.New("process has ended")

// ntProcessCall opens pid for suspend/resume and calls fn on it.
func ntProcessCall(fn *windows.LazyProc, pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SUSPEND_RESUME, false, pid)
	if err != nil {
		if err == windows.ERROR_INVALID_PARAMETER {
			return errGone // the pid no longer exists
		}
		return fmt.Errorf("opening process: %w", err)
	}
	defer windows.CloseHandle(h)
	if st, _, _ := fn.Call(uintptr(h)); st != 0 {
		return fmt.Errorf("%s failed: NTSTATUS 0x%08x", fn.Name, uint32(st))
	}
	return nil
}

// jobPids lists the processes in the pane's job
// (JOBOBJECT_BASIC_PROCESS_ID_LIST: two DWORD counts, then ULONG_PTR ids
// starting at byte 8 on both 32- and 64-bit Windows).
func (c *conPTY) jobPids() ([]uint32, error) {
	const ptr = unsafe.Sizeof(uintptr(0))
	head := 8 / int(ptr)
	for n := 64; n <= 1<<16; n *= 4 {
		buf := make([]uintptr, head+n)
		err := windows.QueryInformationJobObject(c.job, windows.JobObjectBasicProcessIdList,
			uintptr(unsafe.Pointer(&buf[0])), uint32(uintptr(len(buf))*ptr), nil)
		if err == windows.ERROR_MORE_DATA {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("listing the pane's processes: %w", err)
		}
		counts := (*[2]uint32)(unsafe.Pointer(&buf[0]))
		listed := int(counts[1])
		if listed < int(counts[0]) && listed == n {
			continue // more processes than room
		}
		out := make([]uint32, 0, listed)
		for _, id := range buf[head : head+listed] {
			out = append(out, uint32(id))
		}
		return out, nil
	}
	return nil, errors.New("listing the pane's processes: too many processes")
}
