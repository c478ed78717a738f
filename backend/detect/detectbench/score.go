package detectbench

import (
	"slices"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
)

// series is a detector's "needs you" verdict over time, as change points.
type series struct {
	at  []time.Duration
	val []bool
}

func (s *series) set(t time.Duration, v bool) {
	if n := len(s.val); n > 0 {
		if s.val[n-1] == v {
			return
		}
		if t < s.at[n-1] {
			t = s.at[n-1] // keep change points ordered
		}
	} else if !v {
		return
	}
	s.at, s.val = append(s.at, t), append(s.val, v)
}

// value at t (the last change at or before t).
func (s *series) value(t time.Duration) bool {
	i, found := slices.BinarySearch(s.at, t)
	if found {
		// several changes at the same instant: the last one counts
		for i+1 < len(s.at) && s.at[i+1] == t {
			i++
		}
		return s.val[i]
	}
	if i == 0 {
		return false
	}
	return s.val[i-1]
}

// truthLine is the agent's real state over time.
type truthLine struct {
	at  []time.Duration
	val []detect.State
}

func (l *truthLine) set(t time.Duration, s detect.State) {
	l.at, l.val = append(l.at, t), append(l.val, s)
}

// Score is one detector's row in the reference article's table.
type Score struct {
	Name      string
	Latencies []time.Duration // per detected prompt
	Misses    int
	Prompts   int
	Residual  time.Duration // mean time still saying "needs you" after the answer
	ResidMax  time.Duration
	FPWorkN   int
	FPWork    time.Duration
	FPIdleN   int
	FPIdle    time.Duration
}

// Median and Max of the detection latency.
func (s Score) Median() time.Duration {
	if len(s.Latencies) == 0 {
		return -1
	}
	l := slices.Clone(s.Latencies)
	slices.Sort(l)
	if len(l)%2 == 1 {
		return l[len(l)/2]
	}
	return (l[len(l)/2-1] + l[len(l)/2]) / 2
}

func (s Score) Max() time.Duration {
	if len(s.Latencies) == 0 {
		return -1
	}
	return slices.Max(s.Latencies)
}

// score compares a detector's verdicts with the truth, the way article C
// did: latency from the prompt being drawn to the first "needs you"; a miss
// when it never said so while the prompt showed; residual = how long it
// kept saying so after the answer; false positives = episodes that began
// while the agent was working or idle, with their time split by what the
// agent was really doing (time that merely continues an answered prompt's
// episode is residual, not a false positive).
func score(name string, det *series, truth *truthLine, end time.Duration) Score {
	sc := Score{Name: name}
	// Breakpoints: every change of either line.
	pts := append(slices.Clone(det.at), truth.at...)
	pts = append(pts, end)
	slices.Sort(pts)
	pts = slices.Compact(pts)

	var (
		promptStart        time.Duration
		inPrompt, hit      bool
		epOn, epSawBlocked bool
		residFrom          time.Duration
		residOpen          bool
		residTotal         time.Duration
		prev               = time.Duration(0)
		truthAt            = func(t time.Duration) detect.State { return truthValue(truth, t) }
	)
	for _, t := range pts {
		if t > end {
			break
		}
		// Segment [prev, t) has constant values; account it.
		if t > prev {
			st, on := truthAt(prev), det.value(prev)
			seg := t - prev
			if on && st != detect.Blocked && !epSawBlocked {
				if st == detect.Working {
					sc.FPWork += seg
				} else {
					sc.FPIdle += seg
				}
			}
		}
		st, on := truthAt(t), det.value(t)
		// Prompt bookkeeping. A residual still open when the next prompt
		// appears ends there: from then on "needs you" is right again.
		if st == detect.Blocked && !inPrompt && residOpen {
			r := t - residFrom
			residTotal += r
			sc.ResidMax = max(sc.ResidMax, r)
			residOpen = false
		}
		if st == detect.Blocked && !inPrompt {
			inPrompt, hit, promptStart = true, false, t
			sc.Prompts++
		}
		if inPrompt && st == detect.Blocked && on && !hit {
			hit = true
			sc.Latencies = append(sc.Latencies, t-promptStart)
		}
		if inPrompt && st != detect.Blocked {
			inPrompt = false
			if !hit {
				sc.Misses++
			}
			if on {
				residOpen, residFrom = true, t
			}
		}
		if residOpen && !on {
			r := t - residFrom
			residTotal += r
			sc.ResidMax = max(sc.ResidMax, r)
			residOpen = false
		}
		// Episode bookkeeping.
		if on && !epOn {
			epOn, epSawBlocked = true, st == detect.Blocked
			if st == detect.Working {
				sc.FPWorkN++
			} else if st == detect.Idle {
				sc.FPIdleN++
			}
		} else if on && st == detect.Blocked {
			epSawBlocked = true
		}
		if !on {
			epOn, epSawBlocked = false, false
		}
		prev = t
	}
	if inPrompt && !hit {
		sc.Misses++
	}
	if residOpen {
		r := end - residFrom
		residTotal += r
		sc.ResidMax = max(sc.ResidMax, r)
	}
	if sc.Prompts > 0 {
		sc.Residual = residTotal / time.Duration(sc.Prompts)
	}
	return sc
}

func truthValue(l *truthLine, t time.Duration) detect.State {
	i, found := slices.BinarySearch(l.at, t)
	if found {
		for i+1 < len(l.at) && l.at[i+1] == t {
			i++
		}
		return l.val[i]
	}
	if i == 0 {
		return detect.Idle
	}
	return l.val[i-1]
}
