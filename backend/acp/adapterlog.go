package acp

import (
	"bytes"
	"fmt"
)

// maxHeldLog bounds the adapter's log lines kept back during one turn.
const maxHeldLog = 200

// adapterLog takes the adapter's stderr. Its lines are printed whole and
// on lines of their own: during a turn they wait until the turn ends, so a
// log line never lands in the middle of the agent's answer ("All" + log +
// " done.").
type adapterLog struct {
	c       *client
	partial []byte
}

func (l *adapterLog) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		l.c.logLine(string(bytes.TrimRight(l.partial[:i], "\r")))
		l.partial = l.partial[i+1:]
	}
	if len(l.partial) > 64<<10 { // a "line" that never ends
		l.c.logLine(string(l.partial))
		l.partial = nil
	}
	return len(p), nil
}

// logLine prints an adapter log line now, or keeps it for the turn's end.
func (c *client) logLine(line string) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if c.inTurn {
		if len(c.held) < maxHeldLog {
			c.held = append(c.held, line)
		} else {
			c.dropped++
		}
		return
	}
	c.writeLocked(c.freshLine() + line + "\n")
}

// startTurn holds the adapter's log lines from now until endTurn.
func (c *client) startTurn() {
	c.outMu.Lock()
	c.inTurn = true
	c.outMu.Unlock()
}

// endTurn prints the log lines held during the turn, then msg.
func (c *client) endTurn(msg string) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	c.inTurn = false
	if len(c.held) > 0 {
		s := c.freshLine()
		for _, l := range c.held {
			s += l + "\n"
		}
		if c.dropped > 0 {
			s += fmt.Sprintf("(%d more lines of %s's log left out)\n", c.dropped, c.adapter)
		}
		c.held, c.dropped = nil, 0
		c.writeLocked(s)
	}
	c.writeLocked(msg)
}

// freshLine is "\n" when the pane's cursor is not at a line's start.
func (c *client) freshLine() string {
	if c.midLine {
		return "\n"
	}
	return ""
}

// writeLocked writes s to the pane; c.outMu is held.
func (c *client) writeLocked(s string) {
	if s == "" {
		return
	}
	fmt.Fprint(c.o.Out, s)
	c.midLine = s[len(s)-1] != '\n'
}
