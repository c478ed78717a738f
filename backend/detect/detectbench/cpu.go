package detectbench

import (
	"fmt"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
)

// CPUResult is the cost of detection for many spinning panes, in real time.
type CPUResult struct {
	Panes        int
	Duration     time.Duration
	BaselineCore float64 // share of one core: emulators fed, no detection
	WithCore     float64 // share of one core: emulators fed, detection on
	EvalCore     float64 // share of one core spent inside evaluations (timed)
	EvalsPerSec  float64
}

// DetectionCore is the extra CPU detection costs (with − baseline).
func (r CPUResult) DetectionCore() float64 { return max(r.WithCore-r.BaselineCore, 0) }

// CPU runs panes fake agents, each redrawing a spinner at 10 Hz into its
// own emulator, for d, first without detection and then with a Tracker per
// pane on the real clock plus the safety sweep, and reads process CPU time
// with getrusage around each run. EvalCore is the same cost timed inside
// the evaluations themselves, a check on the getrusage difference.
func CPU(reg *detect.Registry, panes int, d time.Duration) (CPUResult, error) {
	res := CPUResult{Panes: panes, Duration: d}
	var err error
	if res.BaselineCore, _, _, err = spinRun(reg, panes, d, false); err != nil {
		return res, err
	}
	var evals int64
	var busy time.Duration
	if res.WithCore, evals, busy, err = spinRun(reg, panes, d, true); err != nil {
		return res, err
	}
	res.EvalsPerSec = float64(evals) / d.Seconds()
	res.EvalCore = busy.Seconds() / d.Seconds()
	return res, nil
}

func spinRun(reg *detect.Registry, panes int, d time.Duration, detecting bool) (core float64, evals int64, busy time.Duration, err error) {
	sched := detect.NewScheduler(nil, 0)
	emus := make([]*terminal.Emulator, panes)
	trs := make([]*detect.Tracker, panes)
	for i := range emus {
		emu := terminal.NewEmulator(120, 32)
		emu.Write([]byte("\x1b[2J\x1b[H✻ Welcome to Claude Code!\r\n\r\n● Reading the code.\r\n"))
		emus[i] = emu
		if detecting {
			trs[i] = detect.NewTracker(detect.TrackerConfig{ID: fmt.Sprint(i), Registry: reg, Agent: "claude", Screen: emu.Lines})
			sched.Add(trs[i])
		}
	}
	if detecting {
		sched.Start()
		defer sched.Stop()
	}
	g := &gen{}
	frames := make([][]byte, 60)
	for i := range frames {
		frames[i] = []byte(g.spinnerFrame())
	}
	before, err := cpuTime()
	if err != nil {
		return 0, 0, 0, err
	}
	wallStart := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range emus {
		wg.Add(1)
		go func(emu *terminal.Emulator, tr *detect.Tracker, phase int) {
			defer wg.Done()
			// Stagger panes across the 100 ms period like independent agents.
			time.Sleep(time.Duration(phase) * spinnerEvery / time.Duration(panes))
			tick := time.NewTicker(spinnerEvery)
			defer tick.Stop()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				emu.Write(frames[n%len(frames)])
				if tr != nil {
					tr.ScreenChanged()
				}
			}
		}(emus[i], trs[i], i)
	}
	time.Sleep(d)
	close(stop)
	wg.Wait()
	after, err := cpuTime()
	if err != nil {
		return 0, 0, 0, err
	}
	wall := time.Since(wallStart)
	for _, tr := range trs {
		if tr != nil {
			evals += int64(tr.Evaluations())
			busy += tr.Busy()
			tr.Close()
		}
	}
	return (after - before).Seconds() / wall.Seconds(), evals, busy, nil
}
