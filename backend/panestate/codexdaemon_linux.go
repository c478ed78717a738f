package panestate

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/osfoundry/desktop/backend/panehook"
)

// codexProc is a process of this user that runs codex.
type codexProc struct {
	pid, ppid, sid int
	daemon         bool   // the app-server daemon
	updater        bool   // its updater, `app-server daemon pid-update-loop`
	home           string // its CODEX_HOME
	secret         string // the OSF_PANE_SECRET it inherited, if any
	data           string // the OSF_PANE_DATA it inherited, if any
}

// endCodexDaemons ends the codex daemons, and their updaters, started from
// panes that ended (ending holds for their processes) whose CODEX_HOME no
// other codex uses, and reports the secrets of those left running because
// one does.
func endCodexDaemons(ending func(codexProc) bool) (kept map[string]bool) {
	kept = map[string]bool{}
	procs := codexProcs()
	inUse := map[string]bool{}
	for _, p := range procs {
		if !p.daemon && !p.updater && !ending(p) {
			inUse[p.home] = true
		}
	}
	doomed := map[int]codexProc{}
	for _, p := range procs {
		if (!p.daemon && !p.updater) || !ending(p) {
			continue
		}
		if inUse[p.home] {
			kept[p.secret] = true
			continue
		}
		doomed[p.pid] = p
	}
	for _, p := range procs {
		if _, ok := doomed[p.pid]; !ok && p.updater && updaterOf(p, doomed, procs) {
			doomed[p.pid] = p
		}
	}
	pids := make([]int, 0, len(doomed))
	for pid := range doomed {
		pids = append(pids, pid)
	}
	endPIDs(pids)
	return kept
}

// updaterOf reports whether the updater u belongs to a daemon about to
// end. Codex starts the updater beside the daemon, each in a session of
// its own, both reparented to init once the codex that started them ends,
// and it may start it again from the daemon with a bare environment (no
// pane secret, no HOME): the updater is the daemon's when the daemon is its
// parent or shares its session, or when it runs from the daemon package of
// the daemon's CODEX_HOME and no daemon of that CODEX_HOME stays.
func updaterOf(u codexProc, doomed map[int]codexProc, procs []codexProc) bool {
	homes := map[string]bool{}
	for _, d := range doomed {
		if !d.daemon {
			continue
		}
		if u.ppid == d.pid || u.sid == d.sid {
			return true
		}
		homes[d.home] = true
	}
	if u.home == "" || !homes[u.home] {
		return false
	}
	for _, p := range procs {
		if _, ending := doomed[p.pid]; p.daemon && p.home == u.home && !ending {
			return false
		}
	}
	return true
}

// endPIDs sends SIGTERM, and SIGKILL to what is left after two seconds.
func endPIDs(pids []int) {
	if len(pids) == 0 {
		return
	}
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGTERM) //nolint:errcheck // may be gone already
	}
	alive := func() []int {
		var out []int
		for _, pid := range pids {
			if st := procState(pid); st != "" && st != "Z" {
				out = append(out, pid)
			}
		}
		return out
	}
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end) && len(alive()) > 0; {
		time.Sleep(20 * time.Millisecond)
	}
	for _, pid := range alive() {
		syscall.Kill(pid, syscall.SIGKILL) //nolint:errcheck // may be gone already
	}
}

// codexProcs lists this user's processes running codex (the npm wrapper
// `node …/codex` included), with the CODEX_HOME and pane markers from
// their environment.
func codexProcs() []codexProc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	uid := uint32(os.Getuid())
	var out []codexProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := os.Stat("/proc/" + e.Name()); err != nil || st.Sys().(*syscall.Stat_t).Uid != uid {
			continue
		}
		argv := procArgv(pid)
		if !isCodexArgv(argv) {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		ppid, sid, ok := procParent(pid)
		if !ok {
			continue
		}
		vars := strings.Split(string(env), "\x00")
		get := envGetter(vars)
		p := codexProc{pid: pid, ppid: ppid, sid: sid, daemon: isCodexDaemon(argv) && !isCodexUpdater(argv),
			updater: isCodexUpdater(argv), home: sameDir(codexHome(vars)), secret: get(panehook.EnvSecret), data: get(EnvDataDir)}
		if get("CODEX_HOME") == "" {
			// A bare environment (the updater Codex restarts): the
			// daemon package it runs from is inside its CODEX_HOME.
			if exe, err := os.Readlink("/proc/" + e.Name() + "/exe"); err == nil {
				if home, _, ok := strings.Cut(exe, daemonPackages); ok {
					p.home = sameDir(home)
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// daemonPackages is where in CODEX_HOME Codex installs the binary its
// daemon and updater run from.
const daemonPackages = "/packages/app-server-daemon/"

// procParent reads pid's parent and session from /proc/<pid>/stat.
func procParent(pid int) (ppid, sid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, false
	}
	// After the command: state ppid pgrp session …
	f := strings.Fields(s[i+1:])
	if len(f) < 4 {
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	sid, err2 := strconv.Atoi(f[3])
	return ppid, sid, err1 == nil && err2 == nil
}

// procState is the state letter of pid ("" when it is gone).
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+3 > len(s) {
		return ""
	}
	return s[i+2 : i+3]
}
