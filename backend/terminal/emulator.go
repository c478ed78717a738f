package terminal

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// Emulator is the pane's emulated screen: vt10x behind the filter. It is
// what detection reads (the visible screen only, never scrollback) and what
// `osfoundry screen` prints. Safe for concurrent use.
type Emulator struct {
	mu      sync.Mutex
	cols    int
	rows    int
	f       filter
	pending []byte // emulator-bound bytes not handed to vt10x yet
	// vtMu is held while vt10x parses, and guards vt, partial, spare,
	// skipBuf and cellBuf (mu guards the rest). A full queue is parsed on
	// a goroutine of its own (see handOff) so that the PTY reader goes on
	// reading meanwhile; anything that reads or changes the screen takes
	// mu and then vtMu, so it waits for that parse and sees every byte
	// written before it asked.
	vtMu    sync.Mutex
	vt      vt10x.Terminal
	partial []byte // an incomplete UTF-8 rune held back for the next write
	spare   []byte // a handed-off queue's buffer, emptied, for the next queue
	skipBuf []byte
	cellBuf []byte
	// fullRegion is false while the program has a partial scroll region
	// (DECSTBM): skipping scrolled-off text is only exact without one.
	fullRegion bool
	title      string
	replyFn    func([]byte)
	oscFn      func(num int, payload string)
	gen        uint64 // bumped on every write that reached the screen
	// lines caches Lines() for linesGen: detection reads the screen far
	// more often than a quiet pane changes.
	lines    []string
	linesGen uint64
}

// Min and max pane sizes; requests outside are clamped, so a resize to
// 1×1 or a huge window never breaks the emulator.
const (
	MinCols, MinRows = 2, 1
	MaxCols, MaxRows = 1000, 500
)

// NewEmulator returns an emulator of the given size.
func NewEmulator(cols, rows int) *Emulator {
	cols, rows = clampSize(cols, rows)
	e := &Emulator{cols: cols, rows: rows, fullRegion: true}
	e.vt = vt10x.New(vt10x.WithSize(cols, rows))
	e.f.hooks = (*emuHooks)(e)
	return e
}

func clampSize(cols, rows int) (int, int) {
	return min(max(cols, MinCols), MaxCols), min(max(rows, MinRows), MaxRows)
}

// OnReply sets where answers to terminal queries go (the PTY input).
func (e *Emulator) OnReply(fn func([]byte)) { e.mu.Lock(); e.replyFn = fn; e.mu.Unlock() }

// OnOSC sets a callback for every OSC sequence (titles, status reports).
// It runs with the emulator locked: it must not call back into it.
func (e *Emulator) OnOSC(fn func(num int, payload string)) { e.mu.Lock(); e.oscFn = fn; e.mu.Unlock() }

// Write feeds raw program output. It returns the bytes xterm.js should
// draw, appended to ui (queries and status reports removed).
func (e *Emulator) Write(p []byte) []byte { return e.WriteUI(p, nil) }

// WriteUI is Write with a caller-provided UI buffer to append to.
func (e *Emulator) WriteUI(p []byte, ui []byte) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.f.write(p, sinks{emu: e.queue, ui: &ui})
	if len(e.pending) >= lazyMax {
		e.handOff()
	}
	e.gen++
	return ui
}

// Emulation is lazy: bytes queue up until someone reads the screen (or
// lazyMax accumulate), so a burst is emulated in large pieces where the
// scrolled-off part can be skipped. PTY reads are only ~4 KiB each.
const lazyMax = 1 << 20

// handOff starts parsing the queue on a goroutine of its own and starts a
// new queue. Parsed on the writer's goroutine, each full queue stalled the
// PTY reads for the whole parse, and the program writing to the pane with
// them. Called with mu held. The vtMu taken here is released by the
// parsing goroutine; while the previous queue is still being parsed this
// waits for it, so at most one queue is parsed and one fills behind it.
func (e *Emulator) handOff() {
	e.vtMu.Lock()
	b, full, rows := e.pending, e.fullRegion, e.rows
	e.pending, e.spare = e.spare[:0], nil
	go func() {
		defer e.vtMu.Unlock()
		e.emulate(b, full, rows)
		if cap(b) <= 4<<20 {
			e.spare = b[:0] // a burst should not pin a huge buffer
		}
	}()
}

func (e *Emulator) queue(b []byte) {
	if cap(e.pending)-len(e.pending) < len(b) {
		// Double: append grows big slices by 1.25×, which cost 5 MB of
		// allocation and copying to queue each lazyMax burst.
		nb := make([]byte, len(e.pending), max(2*cap(e.pending), len(e.pending)+len(b), 4<<10))
		copy(nb, e.pending)
		e.pending = nb
	}
	e.pending = append(e.pending, b...)
}

// flush emulates the queued bytes now, after any queue handed off
// before. Called with mu held; when it returns vt10x is idle and stays so
// until mu is released (only a writer holding mu hands a queue off), so the
// caller may read the screen.
func (e *Emulator) flush() {
	e.vtMu.Lock()
	defer e.vtMu.Unlock()
	if len(e.pending) == 0 {
		return
	}
	e.emulate(e.pending, e.fullRegion, e.rows)
	e.pending = e.pending[:0]
	if cap(e.pending) > 4<<20 {
		e.pending = nil // a burst should not pin a huge buffer
	}
}

// emulate feeds queued bytes to vt10x, skipping plain text that scrolls
// off unseen (see skip.go); full and rows are the scroll region and the
// screen height the bytes were written for. Called with vtMu held.
func (e *Emulator) emulate(b []byte, full bool, rows int) {
	if full {
		s := skipScrolledOff(b, rows, e.skipBuf)
		if len(s) > 0 && len(b) > 0 && &s[0] != &b[0] {
			e.skipBuf = s[:0]
		}
		b = s
	}
	e.feed(b)
	if cap(e.skipBuf) > 4<<20 {
		e.skipBuf = nil
	}
}

// feed writes to vt10x, holding back an incomplete trailing rune: vt10x
// drops a rune split across two writes.
func (e *Emulator) feed(b []byte) {
	if len(e.partial) > 0 {
		b = append(e.partial, b...)
		e.partial = nil
	}
	if cut := incompleteTail(b); cut > 0 {
		e.partial = append([]byte(nil), b[len(b)-cut:]...)
		b = b[:len(b)-cut]
	}
	if len(b) > 0 {
		cells := cellText(b, e.cellBuf)
		e.vt.Write(cells)
		// cellText returns ASCII input itself: keeping that as cellBuf made
		// the next non-ASCII feed rewrite its own input (the queue's buffer
		// is reused) while reading it, and a wide rune's pad overwrote the
		// runes after it.
		if len(cells) == 0 || &cells[0] != &b[0] {
			e.cellBuf = cells[:0]
		}
		if cap(e.cellBuf) > 4<<20 {
			e.cellBuf = nil
		}
	}
}

// incompleteTail returns how many trailing bytes start a rune that is not
// complete yet (0 when the tail is complete or invalid).
func incompleteTail(b []byte) int {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return 0
		}
		if c >= 0xc0 { // a leading byte
			need := 2
			if c >= 0xf0 {
				need = 4
			} else if c >= 0xe0 {
				need = 3
			}
			if need > i {
				return i
			}
			return 0
		}
	}
	return 0
}

// Resize changes the emulated screen size (clamped to sane bounds).
func (e *Emulator) Resize(cols, rows int) {
	cols, rows = clampSize(cols, rows)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flush()
	e.cols, e.rows = cols, rows
	e.vt.Resize(cols, rows)
	e.fullRegion = true // vt10x resets the scroll region on resize
	e.gen++
}

// Size returns the current size.
func (e *Emulator) Size() (cols, rows int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cols, e.rows
}

// Generation changes whenever output reached the emulator; detection uses
// it to skip panes whose screen did not change.
func (e *Emulator) Generation() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.gen
}

// Lines returns the visible screen, one string per row, trailing blanks
// trimmed. Scrollback is never included.
func (e *Emulator) Lines() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lines != nil && e.linesGen == e.gen {
		return append([]string(nil), e.lines...)
	}
	e.flush()
	e.vt.Lock()
	defer e.vt.Unlock()
	out := make([]string, e.rows)
	var sb strings.Builder
	for y := 0; y < e.rows; y++ {
		sb.Reset()
		for x := 0; x < e.cols; x++ {
			c := e.vt.Cell(x, y).Char
			switch c {
			case widePad:
				continue
			case 0:
				c = ' '
			}
			sb.WriteRune(c)
		}
		out[y] = strings.TrimRight(sb.String(), " ")
	}
	e.lines, e.linesGen = out, e.gen
	return append([]string(nil), out...)
}

// Text is Lines joined with newlines, trailing empty rows removed.
func (e *Emulator) Text() string {
	lines := e.Lines()
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// Title is the last window title the program set (OSC 0 or 2).
func (e *Emulator) Title() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.title
}

// AltScreen reports whether the program switched to the alternate screen.
func (e *Emulator) AltScreen() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flush()
	return e.vt.Mode()&vt10x.ModeAltScreen != 0
}

// Repaint renders the current screen as escape sequences that draw exactly
// it on a fresh xterm.js: used when a pane is re-attached.
func (e *Emulator) Repaint() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.flush()
	e.vt.Lock()
	defer e.vt.Unlock()
	var b []byte
	if e.vt.Mode()&vt10x.ModeAltScreen != 0 {
		b = append(b, "\x1b[?1049h"...)
	} else {
		b = append(b, "\x1b[?1049l"...)
	}
	b = append(b, "\x1b[H\x1b[2J"...)
	var cur vt10x.Glyph
	cur.FG, cur.BG = vt10x.DefaultFG, vt10x.DefaultBG
	b = append(b, "\x1b[0m"...)
	for y := 0; y < e.rows; y++ {
		b = append(b, "\x1b["...)
		b = strconv.AppendInt(b, int64(y+1), 10)
		b = append(b, ";1H"...)
		last := e.cols - 1
		for last >= 0 {
			g := e.vt.Cell(last, y)
			if (g.Char != ' ' && g.Char != 0) || g.BG != vt10x.DefaultBG {
				break
			}
			last--
		}
		for x := 0; x <= last; x++ {
			g := e.vt.Cell(x, y)
			if g.FG != cur.FG || g.BG != cur.BG || g.Mode != cur.Mode {
				b = appendSGR(b, g)
				cur = g
			}
			c := g.Char
			switch c {
			case widePad:
				continue // xterm.js draws the wide rune over both cells
			case 0:
				c = ' '
			}
			b = utf8.AppendRune(b, c)
		}
	}
	c := e.vt.Cursor()
	b = append(b, "\x1b[0m\x1b["...)
	b = strconv.AppendInt(b, int64(c.Y+1), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(c.X+1), 10)
	b = append(b, 'H')
	if !e.vt.CursorVisible() {
		b = append(b, "\x1b[?25l"...)
	}
	return b
}

func appendSGR(b []byte, g vt10x.Glyph) []byte {
	b = append(b, "\x1b[0"...)
	const bold, underline, italic = 1 << 2, 1 << 1, 1 << 4
	if g.Mode&bold != 0 {
		b = append(b, ";1"...)
	}
	if g.Mode&italic != 0 {
		b = append(b, ";3"...)
	}
	if g.Mode&underline != 0 {
		b = append(b, ";4"...)
	}
	b = appendColor(b, g.FG, "38", vt10x.DefaultFG)
	b = appendColor(b, g.BG, "48", vt10x.DefaultBG)
	return append(b, 'm')
}

func appendColor(b []byte, c vt10x.Color, kind string, def vt10x.Color) []byte {
	switch {
	case c == def || c >= vt10x.DefaultFG:
		return b
	case c < 256:
		b = append(b, ';')
		b = append(b, kind...)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(c), 10)
	default:
		b = append(b, ';')
		b = append(b, kind...)
		b = append(b, ";2;"...)
		b = strconv.AppendInt(b, int64(c>>16&0xff), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(c>>8&0xff), 10)
		b = append(b, ';')
		return strconv.AppendInt(b, int64(c&0xff), 10)
	}
}

// emuHooks adapts the emulator to the filter. Called with e.mu held.
type emuHooks Emulator

func (h *emuHooks) reply(b []byte) {
	if h.replyFn != nil {
		h.replyFn(b)
	}
}

func (h *emuHooks) cursor() (int, int) {
	(*Emulator)(h).flush()
	c := h.vt.Cursor()
	return c.X, c.Y
}

func (h *emuHooks) size() (int, int) { return h.cols, h.rows }

func (h *emuHooks) scrollRegion(full bool) { h.fullRegion = full }

func (h *emuHooks) osc(num int, payload string) {
	if num == 0 || num == 2 {
		h.title = payload
	}
	if h.oscFn != nil {
		h.oscFn(num, payload)
	}
}
