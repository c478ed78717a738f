package detectbench

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
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
	Live  bool          // RunLive: a real PTY in real time
	Sweep time.Duration // our safety sweep (detect.DefaultSweep if 0)
}

// Result is the whole table plus what the run looked like.
type Result struct {
	Scores  []Score
	Script  Script
	Evals   int           // evaluations our detector ran
	EvalCPU time.Duration // wall time spent inside them
}

// The reference article's detectors sample every 50 ms (its supervisor's tick); the
// shipped sweep reads the screen every 700 ms.
const (
	sampleEvery = 50 * time.Millisecond
	seedSweep   = 700 * time.Millisecond
	tailBytes   = 8 << 10
)

var quietThresholds = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 3 * time.Second, 5 * time.Second, 8 * time.Second}

// lab is one pane under observation: the emulator, our Tracker, the reference article's
// detectors, and the truth, on one clock (virtual or real).
type lab struct {
	mu        sync.Mutex // raw, lastOut, truth, series (live mode has several goroutines)
	start     time.Time
	clock     detect.Clock
	emu       *terminal.Emulator
	rs        *detect.RuleSet
	tr        *detect.Tracker
	sched     *detect.Scheduler
	truth     truthLine
	ours      series
	sweep     series
	s50       series
	tail      series
	question  series
	quiet     []series
	raw       []byte
	lastOut   time.Duration
	evalStart time.Time
	stopped   bool
}

func newLab(reg *detect.Registry, o Options, clock detect.Clock) (*lab, error) {
	if o.Cols <= 0 || o.Rows <= 0 {
		o.Cols, o.Rows = 120, 32
	}
	rs := reg.Get("claude")
	if rs == nil {
		return nil, fmt.Errorf("no claude rules loaded")
	}
	l := &lab{start: clock.Now(), clock: clock, emu: terminal.NewEmulator(o.Cols, o.Rows), rs: rs, quiet: make([]series, len(quietThresholds))}
	screen := func() []string {
		l.evalStart = time.Now() // evaluations are serialised by the Tracker
		return l.emu.Lines()
	}
	l.tr = detect.NewTracker(detect.TrackerConfig{
		ID: "bench", Registry: reg, Screen: screen, Clock: clock, Delay: o.Delay, Agent: "claude",
		OnState: func(u detect.Update) {
			// Virtual time stands still during an evaluation: add the work.
			extra := time.Duration(0)
			if _, virtual := clock.(*detect.ManualClock); virtual {
				extra = time.Since(l.evalStart)
			}
			l.mu.Lock()
			l.ours.set(u.At.Sub(l.start)+extra, u.Decision.State == detect.Blocked)
			l.mu.Unlock()
		},
	})
	l.sched = detect.NewScheduler(clock, o.Sweep)
	l.sched.Add(l.tr)
	l.sched.Start()
	// The reference article's detectors, on its 50 ms supervisor tick and 700 ms sweep.
	var tick, sweepTick func()
	tick = func() {
		lines := l.emu.Lines()
		blocked := l.rs.Evaluate(lines).State == detect.Blocked
		q := endsWithQuestion(lines)
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.stopped {
			return
		}
		now := l.since()
		l.s50.set(now, blocked)
		l.tail.set(now, l.rs.EvaluateText(strippedTail(l.raw)).State == detect.Blocked)
		l.question.set(now, q)
		for i, th := range quietThresholds {
			l.quiet[i].set(now, now-l.lastOut >= th)
		}
		clock.AfterFunc(sampleEvery, tick)
	}
	sweepTick = func() {
		blocked := l.rs.Evaluate(l.emu.Lines()).State == detect.Blocked
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.stopped {
			return
		}
		l.sweep.set(l.since(), blocked)
		clock.AfterFunc(seedSweep, sweepTick)
	}
	clock.AfterFunc(sampleEvery, tick)
	clock.AfterFunc(seedSweep, sweepTick)
	return l, nil
}

func (l *lab) since() time.Duration { return l.clock.Now().Sub(l.start) }

// output is what the pane read from the PTY.
func (l *lab) output(b []byte) {
	l.emu.Write(b)
	l.mu.Lock()
	l.raw = append(l.raw, b...)
	if len(l.raw) > 64<<10 {
		l.raw = append(l.raw[:0], l.raw[len(l.raw)-tailBytes:]...)
	}
	l.lastOut = l.since()
	l.mu.Unlock()
	l.tr.ScreenChanged()
}

func (l *lab) setTruth(s detect.State) {
	l.mu.Lock()
	l.truth.set(l.since(), s)
	l.mu.Unlock()
}

func (l *lab) finish(o Options, script Script, end time.Duration) Result {
	l.sched.Stop()
	l.tr.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	res := Result{Script: script}
	res.Evals, res.EvalCPU = l.tr.Evaluations(), l.tr.Busy()
	res.Scores = append(res.Scores, score(fmt.Sprintf("ours: on change (%v coalesced) + %v sweep", orDefault(o.Delay, detect.DefaultDelay), orDefault(o.Sweep, detect.DefaultSweep)), &l.ours, &l.truth, end))
	res.Scores = append(res.Scores,
		score("screen rules, every 50 ms", &l.s50, &l.truth, end),
		score("screen rules, 700 ms sweep", &l.sweep, &l.truth, end),
		score("same rules, last 8 KB stripped", &l.tail, &l.truth, end),
		score(`screen line ends with "?"`, &l.question, &l.truth, end),
	)
	for i, th := range quietThresholds {
		res.Scores = append(res.Scores, score(fmt.Sprintf("output quiet ≥ %gs", th.Seconds()), &l.quiet[i], &l.truth, end))
	}
	return res
}

// Run plays the script in virtual time through the app's emulator and
// scores every detector. Our detector is the real Tracker + Scheduler on a
// virtual clock; the wall time each of its evaluations takes is added to
// the moment it reports, so the latency includes the work, not only the
// scheduling.
func Run(reg *detect.Registry, o Options) (Result, error) {
	if o.Tasks <= 0 {
		o.Tasks = 30
	}
	script := NewScript(o.Seed, o.Tasks)
	start := time.Unix(0, 0)
	clock := detect.NewManualClock(start)
	l, err := newLab(reg, o, clock)
	if err != nil {
		return Result{}, err
	}
	for _, ev := range script.Events {
		clock.AdvanceTo(start.Add(ev.At))
		if len(ev.Out) > 0 {
			l.output(ev.Out)
		}
		if ev.Truth != "" {
			l.setTruth(ev.Truth)
		}
	}
	clock.AdvanceTo(start.Add(script.End))
	return l.finish(o, script, script.End), nil
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

// strippedTail is the byte-tail method the reference article measured: the last 8 KB,
// escape sequences deleted, each line reduced to what follows its last \r.
func strippedTail(raw []byte) string {
	if len(raw) > tailBytes {
		raw = raw[len(raw)-tailBytes:]
	}
	text := escSeq.ReplaceAllString(string(raw), "")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, "\r") // "\r\n", or "\r\r\n" after the tty's ONLCR
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
