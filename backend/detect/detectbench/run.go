package detectbench

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
	"github.com/osfoundry/desktop/backend/terminal"
)

// Options for one run of the experiment.
type Options struct {
	Seed  uint64
	Tasks int
	Cols  int
	Rows  int
	Delay time.Duration // our coalescing delay (detect.DefaultDelay if 0)
	Sweep time.Duration // our safety sweep (detect.DefaultSweep if 0)
}

// Result is the whole table plus what the run looked like.
type Result struct {
	Scores  []Score
	Script  Script
	Evals   int           // evaluations our detector ran
	EvalCPU time.Duration // wall time spent inside them
}

// The seed's detectors sample every 50 ms (its supervisor's tick); the
// shipped sweep reads the screen every 700 ms.
const (
	sampleEvery = 50 * time.Millisecond
	seedSweep   = 700 * time.Millisecond
	tailBytes   = 8 << 10
)

var quietThresholds = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 3 * time.Second, 5 * time.Second, 8 * time.Second}

// Run plays the script in virtual time through the app's emulator and
// scores every detector. Our detector is the real Tracker + Scheduler on a
// virtual clock; the wall time each of its evaluations takes is added to
// the moment it reports, so the latency includes the work, not only the
// scheduling.
func Run(reg *detect.Registry, o Options) (Result, error) {
	if o.Tasks <= 0 {
		o.Tasks = 30
	}
	if o.Cols <= 0 || o.Rows <= 0 {
		o.Cols, o.Rows = 120, 32
	}
	rs := reg.Get("claude")
	if rs == nil {
		return Result{}, fmt.Errorf("no claude rules loaded")
	}
	script := NewScript(o.Seed, o.Tasks)
	start := time.Unix(0, 0)
	clock := detect.NewManualClock(start)
	since := func() time.Duration { return clock.Now().Sub(start) }
	emu := terminal.NewEmulator(o.Cols, o.Rows)

	var (
		truth            truthLine
		ours, sweep, s50 series
		tail, question   series
		quiet            = make([]series, len(quietThresholds))
		raw              []byte
		lastOut          time.Duration
		res              = Result{Script: script}
		evalStart        time.Time
	)
	screen := func() []string {
		evalStart = time.Now()
		return emu.Lines()
	}
	tr := detect.NewTracker(detect.TrackerConfig{
		ID: "bench", Registry: reg, Screen: screen, Clock: clock, Delay: o.Delay, Agent: "claude",
		OnState: func(u detect.Update) {
			ours.set(u.At.Sub(start)+time.Since(evalStart), u.Decision.State == detect.Blocked)
		},
	})
	sched := detect.NewScheduler(clock, o.Sweep)
	sched.Add(tr)
	sched.Start()
	defer sched.Stop()

	// The seed's detectors, on its 50 ms supervisor tick and 700 ms sweep.
	var tick func()
	tick = func() {
		now := since()
		lines := emu.Lines()
		s50.set(now, rs.Evaluate(lines).State == detect.Blocked)
		tail.set(now, rs.EvaluateText(strippedTail(raw)).State == detect.Blocked)
		question.set(now, endsWithQuestion(lines))
		for i, th := range quietThresholds {
			quiet[i].set(now, now-lastOut >= th)
		}
		clock.AfterFunc(sampleEvery, tick)
	}
	clock.AfterFunc(sampleEvery, tick)
	var sweepTick func()
	sweepTick = func() {
		sweep.set(since(), rs.Evaluate(emu.Lines()).State == detect.Blocked)
		clock.AfterFunc(seedSweep, sweepTick)
	}
	clock.AfterFunc(seedSweep, sweepTick)

	for _, ev := range script.Events {
		clock.AdvanceTo(start.Add(ev.At))
		if len(ev.Out) > 0 {
			emu.Write(ev.Out)
			raw = append(raw, ev.Out...)
			if len(raw) > 64<<10 {
				raw = append(raw[:0], raw[len(raw)-tailBytes:]...)
			}
			lastOut = ev.At
			tr.ScreenChanged()
		}
		if ev.Truth != "" {
			truth.set(ev.At, ev.Truth)
		}
	}
	clock.AdvanceTo(start.Add(script.End))
	res.Evals, res.EvalCPU = tr.Evaluations(), tr.Busy()

	res.Scores = append(res.Scores, score(fmt.Sprintf("ours: on change (%v coalesced) + %v sweep", orDefault(o.Delay, detect.DefaultDelay), orDefault(o.Sweep, detect.DefaultSweep)), &ours, &truth, script.End))
	res.Scores = append(res.Scores,
		score("screen rules, every 50 ms", &s50, &truth, script.End),
		score("screen rules, 700 ms sweep", &sweep, &truth, script.End),
		score("same rules, last 8 KB stripped", &tail, &truth, script.End),
		score(`screen line ends with "?"`, &question, &truth, script.End),
	)
	for i, th := range quietThresholds {
		res.Scores = append(res.Scores, score(fmt.Sprintf("output quiet ≥ %gs", th.Seconds()), &quiet[i], &truth, script.End))
	}
	return res, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

var (
	escSeq = regexp.MustCompile(`\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]`)
)

// strippedTail is the byte-tail method the seed measured: the last 8 KB,
// escape sequences deleted, each line reduced to what follows its last \r.
func strippedTail(raw []byte) string {
	if len(raw) > tailBytes {
		raw = raw[len(raw)-tailBytes:]
	}
	text := escSeq.ReplaceAllString(string(raw), "")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r") // a PTY's "\r\n"
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

func endsWithQuestion(lines []string) bool {
	for _, l := range lines {
		if strings.HasSuffix(strings.TrimRight(l, " "), "?") {
			return true
		}
	}
	return false
}
