// Package detectbench re-runs article C's live experiment: a fake agent that
// draws like Claude Code, a user bot, and several "needs you" detectors
// scored against the agent's true state. `osfoundry-bench detect` prints it.
package detectbench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
)

// Event is one thing that happens in the pane: output bytes and/or a change
// of the agent's true state, at a virtual time since the start.
type Event struct {
	At    time.Duration
	Out   []byte
	Truth detect.State // "" = unchanged
}

// Script is a whole run: what the pane shows and what was really going on.
type Script struct {
	Events  []Event
	End     time.Duration
	Prompts int
	Waited  time.Duration // total time prompts waited for the bot
}

// Habits of the fake agent and the bot, from article C.
const (
	spinnerEvery = 100 * time.Millisecond // 10 Hz, redrawn with \r
	frameBytes   = 60
	promptProb   = 0.8 // per tool call: ≈25 prompts in 30 tasks, as in the reference article's run
)

var spinnerGlyphs = []string{"·", "✢", "✳", "✶", "✻", "✽"}

type gen struct {
	rng    *rand.Rand
	t      time.Duration
	ev     []Event
	turnAt time.Duration
	frame  int
}

func (g *gen) out(s string)         { g.ev = append(g.ev, Event{At: g.t, Out: []byte(s)}) }
func (g *gen) truth(s detect.State) { g.ev = append(g.ev, Event{At: g.t, Truth: s}) }
func (g *gen) wait(d time.Duration) { g.t += d }
func (g *gen) between(lo, hi float64) time.Duration {
	return time.Duration((lo + g.rng.Float64()*(hi-lo)) * float64(time.Second))
}

// spinnerFrame is one redraw of the status line, always 60 bytes of text
// ending in "esc to interrupt)".
func (g *gen) spinnerFrame() string {
	g.frame++
	secs := int((g.t - g.turnAt) / time.Second)
	s := fmt.Sprintf("\r%s Working… (%ds · esc to interrupt)", spinnerGlyphs[g.frame%len(spinnerGlyphs)], secs)
	if pad := frameBytes - len(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// spin redraws the spinner at 10 Hz for d.
func (g *gen) spin(d time.Duration) {
	end := g.t + d
	for g.t < end {
		g.out(g.spinnerFrame())
		g.wait(min(spinnerEvery, end-g.t))
	}
}

// history prints a finished line above the live status line.
func (g *gen) history(line string) {
	g.out("\r\x1b[K" + line + "\r\n")
	g.out(g.spinnerFrame())
}

// words places each word of a row with CSI n G, as Claude Code does: the
// gaps are cursor moves, not spaces.
func words(row string, indent int) string {
	var b strings.Builder
	col := indent + 1
	for i, w := range strings.Split(row, " ") {
		if i == 0 && indent > 0 || i > 0 {
			fmt.Fprintf(&b, "\x1b[%dG", col)
		}
		b.WriteString(w)
		col += len([]rune(w)) + 1
	}
	return b.String()
}

var promptRows = []struct {
	text   string
	indent int
}{
	{"Do you want to proceed?", 1},
	{"❯ 1. Yes", 1},
	{"2. Yes, and don't ask again for npm commands", 3},
	{"3. No, and tell Claude what to do differently (esc)", 3},
}

var tools = []string{"Bash(npm test -- payments)", "Read(src/payments/charge.ts)", "Grep(createPaymentIntent)", "Update(src/payments/charge.ts)", "Bash(git diff --stat)"}

// NewScript writes a seeded run of tasks: per task one step (sometimes two)
// of spinner (2–8 s) and a silent tool call (0.5–6 s), most behind a permission
// prompt the bot answers after 3–8 s; the turn ends with the idle footer,
// sometimes after "Would you like me to …?"; the bot types the next task
// 3–10 s later.
func NewScript(seed uint64, tasks int) Script {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 0x5eed0004))}
	var s Script
	g.out("\x1b[2J\x1b[H✻ Welcome to Claude Code!\r\n\r\n")
	g.out("> \r\n  ? for shortcuts")
	g.truth(detect.Idle)
	g.wait(g.between(1, 3))
	for task := 1; task <= tasks; task++ {
		// The bot types the task; the agent echoes it and starts working.
		g.out("\x1b[1A\r\x1b[J" + fmt.Sprintf("> Task %d: fix the next failing check\r\n", task))
		g.truth(detect.Working)
		g.turnAt = g.t
		steps := 1
		if g.rng.IntN(10) == 0 {
			steps = 2
		}
		for step := 0; step < steps; step++ {
			g.spin(g.between(2, 8))
			tool := tools[g.rng.IntN(len(tools))]
			if g.rng.Float64() < promptProb {
				// The agent waits for the user from the first word it draws.
				g.truth(detect.Blocked)
				g.out("\r\x1b[K")
				for i, r := range promptRows {
					if i > 0 {
						g.wait(time.Duration(1+g.rng.IntN(3)) * time.Millisecond)
					}
					g.out(words(r.text, r.indent) + "\r\n")
				}
				s.Prompts++
				answer := g.between(3, 8)
				s.Waited += answer
				g.wait(answer)
				// The answer: cursor back up over the prompt, erase to the end.
				g.out(fmt.Sprintf("\x1b[%dA\r\x1b[J", len(promptRows)))
				g.truth(detect.Working)
				g.out(g.spinnerFrame())
				g.wait(spinnerEvery)
			}
			g.history("● " + tool)
			g.wait(g.between(0.5, 6)) // silent tool call: nothing drawn
			g.history("  ⎿ done")
		}
		g.spin(g.between(1, 4))
		g.out("\r\x1b[K● Fixed. The check passes now.\r\n")
		if g.rng.IntN(6) == 0 {
			g.out("● Would you like me to add a regression test?\r\n")
		}
		g.out("\r\n> \r\n  ? for shortcuts")
		g.truth(detect.Idle)
		g.wait(g.between(3, 10))
	}
	s.Events, s.End = g.ev, g.t
	return s
}
