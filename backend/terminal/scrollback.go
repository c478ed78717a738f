package terminal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// A pane's scrollback outlives the app when the person keeps it (Settings
// → Terminal): the recent output a view would replay (the batcher's ring)
// is written to the app's database every saveEvery while it changes and
// when the app quits. A restored pane's views draw it first
// (Attachment.Restored) and scroll it off their screen, then the new
// program's output under a dim line. It is kept on this machine only;
// closing the pane deletes it.

// ScrollbackStore keeps panes' saved output (the pane store does).
type ScrollbackStore interface {
	// SaveScrollback replaces pane id's saved output.
	SaveScrollback(id string, data []byte) error
	// LoadScrollback returns pane id's saved output and when it was saved
	// (nil when none); a row that cannot be read is ErrScrollbackDamaged.
	LoadScrollback(id string) (data []byte, saved time.Time, err error)
	// DeleteScrollback forgets pane id's output ("" forgets every pane's).
	DeleteScrollback(id string) error
}

// ErrScrollbackDamaged: saved output could not be read back; the pane
// starts without it.
var ErrScrollbackDamaged = errors.New("the saved scrollback is damaged")

// MaxScrollbackBytes bounds what is kept per pane, whatever the line count.
const MaxScrollbackBytes = 2 << 20

// ScrollbackPolicy is what the person chose in Settings → Terminal.
type ScrollbackPolicy struct {
	Keep  bool // keep panes' output across restarts
	Lines int  // at most this many lines per pane
}

// Changed output is written while the app runs, so a crash, or a quit the
// app does not see through, loses little: a pane's output once it has
// been still for saveSettled (an agent's answer, a command's result), and
// at least every saveEvery while it keeps coming. Only panes whose output
// changed are written; one costs a few ms (256 KiB of recent output
// compresses in ~3 ms).
const (
	saveSettled = time.Second
	saveEvery   = 10 * time.Second
)

// scrollbackState is the Manager's side of saved scrollback.
type scrollbackState struct {
	mu     sync.Mutex
	policy ScrollbackPolicy
	saved  map[string]uint64 // pane id → output generation last written
	stop   chan struct{}
}

// SetScrollback applies the person's choice. Turning keeping off deletes
// every pane's saved output at once; while on, a timer writes changed
// output every saveEvery (CloseAll writes the rest).
func (m *Manager) SetScrollback(pol ScrollbackPolicy) {
	pol.Lines = max(pol.Lines, 1)
	m.scroll.mu.Lock()
	was := m.scroll.policy.Keep
	m.scroll.policy = pol
	start := pol.Keep && m.scroll.stop == nil
	if start {
		m.scroll.stop = make(chan struct{})
	}
	stopCh := m.scroll.stop
	if !pol.Keep && stopCh != nil {
		close(stopCh)
		m.scroll.stop = nil
	}
	m.scroll.saved = nil
	m.scroll.mu.Unlock()
	if start {
		go m.saveLoop(stopCh)
	}
	if was && !pol.Keep {
		if st := m.scrollStore(); st != nil {
			m.storeMu.Lock()
			err := st.DeleteScrollback("")
			m.storeMu.Unlock()
			if err != nil {
				fmt.Fprintln(os.Stderr, "osfoundry:", err)
			}
		}
	}
}

// stopSaving ends the timer that writes changed output (app quit).
func (m *Manager) stopSaving() {
	m.scroll.mu.Lock()
	defer m.scroll.mu.Unlock()
	if m.scroll.stop != nil {
		close(m.scroll.stop)
		m.scroll.stop = nil
	}
}

func (s *scrollbackState) forget(id string) {
	s.mu.Lock()
	delete(s.saved, id)
	s.mu.Unlock()
}

func (m *Manager) scrollStore() ScrollbackStore {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, _ := m.specs.(ScrollbackStore)
	return st
}

func (m *Manager) scrollPolicy() ScrollbackPolicy {
	m.scroll.mu.Lock()
	defer m.scroll.mu.Unlock()
	return m.scroll.policy
}

// saveClock is the timer's view of each open pane (saveLoop's own).
type saveClock struct {
	seen    map[string]uint64    // output generation at the last tick
	wroteAt map[string]time.Time // when the timer last wrote its output
}

func (m *Manager) saveLoop(stop chan struct{}) {
	t := time.NewTicker(saveSettled)
	defer t.Stop()
	c := saveClock{seen: map[string]uint64{}, wroteAt: map[string]time.Time{}}
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			if err := m.saveDue(&c, now); err != nil {
				fmt.Fprintln(os.Stderr, "osfoundry:", err)
			}
		}
	}
}

// saveDue writes the panes whose output changed and has been still since
// the last tick, or has kept changing for saveEvery since it was last
// written.
func (m *Manager) saveDue(c *saveClock, now time.Time) error {
	pol, st := m.scrollPolicy(), m.scrollStore()
	if !pol.Keep || st == nil {
		return nil
	}
	open := m.openPanes()
	seen := make(map[string]uint64, len(open)) // closed panes drop out
	var errs []error
	for _, p := range open {
		id, gen := p.ID(), p.batch.generation()
		seen[id] = gen
		m.scroll.mu.Lock()
		changed := m.scroll.saved[id] != gen
		m.scroll.mu.Unlock()
		if !changed || (c.seen[id] != gen && now.Sub(c.wroteAt[id]) < saveEvery) {
			continue
		}
		if err := m.saveScrollback(st, p, pol); err != nil {
			errs = append(errs, err)
		}
		c.wroteAt[id] = now
	}
	c.seen = seen
	for id := range c.wroteAt {
		if _, ok := seen[id]; !ok {
			delete(c.wroteAt, id)
		}
	}
	return errors.Join(errs...)
}

func (m *Manager) openPanes() []*Pane {
	m.mu.Lock()
	defer m.mu.Unlock()
	ps := make([]*Pane, 0, len(m.pan))
	for _, p := range m.pan {
		ps = append(ps, p)
	}
	return ps
}

// SaveScrollbacks writes the output of every open pane that changed since
// it was last written (nothing while keeping is off).
func (m *Manager) SaveScrollbacks() error {
	pol, st := m.scrollPolicy(), m.scrollStore()
	if !pol.Keep || st == nil {
		return nil
	}
	var errs []error
	for _, p := range m.openPanes() {
		if err := m.saveScrollback(st, p, pol); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (m *Manager) saveScrollback(st ScrollbackStore, p *Pane, pol ScrollbackPolicy) error {
	gen, data := p.scrollback(pol.Lines)
	m.scroll.mu.Lock()
	same := m.scroll.saved[p.ID()] == gen
	m.scroll.mu.Unlock()
	if same {
		return nil
	}
	// Under storeMu, and only while the pane is open and keeping is on: a
	// pane closed, or keeping turned off, meanwhile keeps its saved output
	// deleted (Close and SetScrollback delete under storeMu).
	m.storeMu.Lock()
	defer m.storeMu.Unlock()
	m.mu.Lock()
	open := m.pan[p.ID()] == p
	m.mu.Unlock()
	if !open || !m.scrollPolicy().Keep {
		return nil
	}
	if err := st.SaveScrollback(p.ID(), data); err != nil {
		return err
	}
	m.scroll.mu.Lock()
	if m.scroll.saved == nil {
		m.scroll.saved = map[string]uint64{}
	}
	m.scroll.saved[p.ID()] = gen
	m.scroll.mu.Unlock()
	return nil
}

// restoredOptions adds a restored pane's saved output to o, or a notice
// saying it could not be read (the pane starts either way).
func (m *Manager) restoredOptions(o Options) Options {
	st := m.scrollStore()
	if st == nil || !m.scrollPolicy().Keep {
		return o
	}
	data, saved, err := st.LoadScrollback(o.ID)
	var line string
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "osfoundry:", err)
		st.DeleteScrollback(o.ID)
		line = "The output saved from the last session could not be read and was discarded."
	case len(data) > 0:
		o.Restored = data
		line = "── Restored from the last session (" + saved.Local().Format("2 Jan 15:04") + ") · scroll up to read it ──"
	default:
		return o
	}
	if o.Notice != "" {
		o.Notice = line + "\r\n" + o.Notice
	} else {
		o.Notice = line
	}
	return o
}

// scrollback is what to keep of the pane's output now (the restored part
// first while the recent-output ring still holds everything since), at
// most lines lines and MaxScrollbackBytes, and a number that changes
// whenever it does.
func (p *Pane) scrollback(lines int) (gen uint64, data []byte) {
	seq, recent, wrapped := p.batch.recentCopy()
	var out []byte
	if old := p.restoredBefore(wrapped); len(old) > 0 {
		out = append(out, old...)
		out = append(out, "\x1b[0m\r\n"...)
	}
	out = append(out, recent...)
	return seq, TrimScrollback(SanitizeScrollback(out), lines, MaxScrollbackBytes)
}

// restoredBefore is the restored output that still comes before the ring:
// once the ring has wrapped it is older than anything a view replays.
func (p *Pane) restoredBefore(wrapped bool) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if wrapped {
		p.restored = nil
	}
	return p.restored
}

// TrimScrollback keeps the last lines lines of b and at most maxBytes,
// starting at a line boundary.
func TrimScrollback(b []byte, lines, maxBytes int) []byte {
	if len(b) > maxBytes {
		b = b[len(b)-maxBytes:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	n := 0
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			// A trailing newline ends the last line rather than starting one.
			if i == len(b)-1 {
				continue
			}
			if n++; n == lines {
				return b[i+1:]
			}
		}
	}
	return b
}

// SanitizeScrollback keeps of a pane's UI bytes what redraws its text:
// printable text, line breaks, colours and cursor movement. It drops
// everything that would act on the terminal or the machine when replayed
// at a later start — OSC strings (titles, the clipboard), device strings,
// mode changes (mouse reporting, bracketed paste), queries, bells, full
// resets, erasing the scrollback — and what a program drew on the
// alternate screen, which a terminal never keeps in its scrollback.
func SanitizeScrollback(b []byte) []byte {
	out := make([]byte, 0, len(b))
	alt := false
	emit := func(p []byte) {
		if !alt {
			out = append(out, p...)
		}
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			n, keep, altMode := escape(b[i:])
			if n == 0 {
				return out // an unfinished sequence ends the text
			}
			if altMode != 0 {
				alt = altMode > 0
			} else if keep {
				emit(b[i : i+n])
			}
			i += n
		case c == '\n' || c == '\r' || c == '\t' || c == '\b':
			emit(b[i : i+1])
			i++
		case c < 0x20 || c == 0x7f:
			i++ // other controls: a bell, shift-in/out
		default:
			emit(b[i : i+1])
			i++
		}
	}
	return out
}

// csiKept are the final bytes of the CSI sequences a replay keeps: colours
// and text attributes, cursor movement, erasing and scrolling in the
// screen, inserting and deleting.
const csiKept = "mABCDEFGHJKdfLMPX@STr`ae"

// escape measures the escape sequence at b[0] (0: unfinished) and says
// whether a replay keeps it; altMode is +1 or -1 when it enters or leaves
// the alternate screen.
func escape(b []byte) (n int, keep bool, altMode int) {
	if len(b) < 2 {
		return 0, false, 0
	}
	switch b[1] {
	case '[':
		i := 2
		for i < len(b) && b[i] >= 0x30 && b[i] <= 0x3f {
			i++ // parameters and private markers
		}
		params := b[2:i]
		inter := i
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2f {
			i++
		}
		if i >= len(b) {
			return 0, false, 0
		}
		final := b[i]
		n = i + 1
		if final < 0x40 || final > 0x7e {
			return n, false, 0 // malformed: drop it
		}
		if len(params) > 0 && params[0] == '?' && (final == 'h' || final == 'l') {
			for _, p := range bytes.Split(params[1:], []byte{';'}) {
				if v, err := strconv.Atoi(string(p)); err == nil && (v == 47 || v == 1047 || v == 1049) {
					if final == 'h' {
						return n, false, 1
					}
					return n, false, -1
				}
			}
			return n, false, 0
		}
		if inter != i || (len(params) > 0 && params[0] >= 0x3c) {
			return n, false, 0 // intermediates (cursor shape) or private sequences
		}
		if final == 'J' && bytes.Equal(params, []byte("3")) {
			return n, false, 0 // erasing the scrollback would erase the restored text
		}
		return n, bytes.IndexByte([]byte(csiKept), final) >= 0, 0
	case ']', 'P', '_', '^', 'X':
		// A string up to BEL (OSC only) or ST.
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 && b[1] == ']' {
				return i + 1, false, 0
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2, false, 0
			}
		}
		return 0, false, 0
	case '(', ')', '*', '+':
		if len(b) < 3 {
			return 0, false, 0
		}
		return 3, true, 0 // character sets (line drawing)
	case '7', '8', 'M', 'D', 'E':
		return 2, true, 0 // save and restore the cursor, index, next line
	default:
		return 2, false, 0 // a full reset, keypad modes, …
	}
}
