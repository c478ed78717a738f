package detectbench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/creack/pty"

	"github.com/osfoundry/desktop/backend/detect"
)

// RunLive is Run in real time through a real PTY: the fake agent writes
// the script to the terminal's slave side at the script's times, the pane
// reads the master side into the emulator, and our Tracker runs on the wall
// clock. 30 tasks take about 11 minutes; fewer tasks keep it short.
func RunLive(reg *detect.Registry, o Options) (Result, error) {
	if o.Tasks <= 0 {
		o.Tasks = 30
	}
	script := NewScript(o.Seed, o.Tasks)
	master, slave, err := pty.Open()
	if err != nil {
		return Result{}, fmt.Errorf("opening a pty: %w", err)
	}
	defer master.Close()
	if err := pty.Setsize(master, &pty.Winsize{Cols: uint16(max(o.Cols, 120)), Rows: uint16(max(o.Rows, 32))}); err != nil {
		slave.Close()
		return Result{}, fmt.Errorf("sizing the pty: %w", err)
	}
	l, err := newLab(reg, o, detect.RealClock())
	if err != nil {
		slave.Close()
		return Result{}, err
	}
	readDone := make(chan error, 1)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				l.output(buf[:n])
			}
			if err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
					err = nil
				}
				readDone <- err
				return
			}
		}
	}()
	// The fake agent: write each event at its time; the truth changes when
	// the agent hands the bytes to the terminal.
	start := time.Now()
	var werr error
	for _, ev := range script.Events {
		if d := time.Until(start.Add(ev.At)); d > 0 {
			time.Sleep(d)
		}
		if ev.Truth != "" {
			l.setTruth(ev.Truth)
		}
		if len(ev.Out) > 0 {
			if _, err := slave.Write(ev.Out); err != nil {
				werr = fmt.Errorf("writing to the pty: %w", err)
				break
			}
		}
	}
	time.Sleep(time.Until(start.Add(script.End)))
	end := l.since()
	slave.Close()
	master.Close()
	if err := <-readDone; err != nil && werr == nil {
		// EIO is how Linux reports a closed slave on the master side.
		if !errors.Is(err, os.ErrClosed) && !isEIO(err) {
			werr = fmt.Errorf("reading the pty: %w", err)
		}
	}
	if werr != nil {
		return Result{}, werr
	}
	return l.finish(o, script, end), nil
}
