package terminal

import (
	"strings"
	"time"
)

// The Enter of a submitted line comes submitGap after the text at least,
// once the program shows the text's end and its screen has held still for
// quietGap, and echoWait after the typing at most.
const (
	submitGap = 300 * time.Millisecond
	quietGap  = 150 * time.Millisecond
	echoWait  = 5 * time.Second
	// echoTail is how many of the text's last non-blank characters the
	// screen must show: enough to tell them from the rest of the screen.
	echoTail = 32
)

// Submit types text into the pane, then Enter once the program shows the
// end of the text and its screen held still for quietGap (submitGap at
// least, echoWait at most), the way a person presses Enter after seeing
// what they typed. An agent's prompt that reads text and Enter in one burst
// (typed together, or read late while the agent starts or the machine is
// busy) takes it for a paste and the Enter for a new line in it: Claude
// Code leaves such a message in its prompt, unsent. Any drawing is not
// enough: a starting agent draws its own screen before it reads its input.
func (p *Pane) Submit(text string) error {
	tail := unblank(text)
	if r := []rune(tail); len(r) > echoTail {
		tail = string(r[len(r)-echoTail:])
	}
	shown := func() int { return strings.Count(unblank(strings.Join(p.emu.Lines(), "")), tail) }
	before := shown()
	typed := time.Now()
	if _, err := p.Write([]byte(text)); err != nil {
		return err
	}
	time.Sleep(submitGap)
	for end := typed.Add(echoWait); time.Now().Before(end) && !p.isClosed(); time.Sleep(20 * time.Millisecond) {
		d := p.Drawn()
		if d.After(typed) && time.Since(d) >= quietGap && shown() > before {
			break
		}
	}
	_, err := p.Write([]byte("\r"))
	return err
}

// unblank drops every blank from s: a prompt wraps a long line where it
// likes and indents what follows.
func unblank(s string) string {
	return strings.Join(strings.Fields(s), "")
}
