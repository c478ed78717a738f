package terminal

// The filter sits between the PTY and both consumers of its output (the
// vt10x emulator and the xterm.js pane). It splits the byte stream into
// plain text and escape sequences and decides, per sequence, who sees it.
//
// Why: vt10x misreads sequences it does not know. Measured on real Claude
// Code 2.1.328 output, it takes the kitty keyboard query `ESC [ ? u` for
// "restore cursor", so the relative moves that follow land on the wrong
// rows (5 of 39 real screens came out wrong). Queries must also be answered
// exactly once — by the pane, which knows the emulated cursor — and never
// by xterm.js as well, or the program reads two answers.

import (
	"bytes"
	"strconv"
)

type filterState uint8

const (
	stGround   filterState = iota
	stEsc                  // after ESC
	stEscInter             // ESC + intermediate bytes (charset designation)
	stCSI                  // ESC [
	stOSC                  // ESC ]
	stOSCEsc               // ESC inside OSC (maybe ST)
	stStr                  // DCS, SOS, PM, APC: dropped until ST
	stStrEsc               // ESC inside a string
)

const (
	maxCSI = 64       // longer CSI sequences are garbage: dropped
	maxOSC = 64 << 10 // longer OSC payloads (clipboard dumps) are dropped
)

// route says where a finished sequence goes.
type route uint8

const (
	toNone route = 0
	toEmu  route = 1 << iota
	toUI
	toBoth = toEmu | toUI
)

// filterHooks are the pane's reactions to sequences the filter consumes.
type filterHooks interface {
	// reply writes an answer back to the program (PTY input).
	reply(b []byte)
	// cursor returns the emulated cursor (0-based) for DSR answers.
	cursor() (x, y int)
	size() (cols, rows int)
	// osc receives every OSC with its number and payload.
	osc(num int, payload string)
	// scrollRegion reports whether the scroll region is the whole screen.
	scrollRegion(full bool)
}

type filter struct {
	st    filterState
	seq   []byte // the sequence collected so far, starting with ESC
	over  bool   // the current OSC overflowed maxOSC
	hooks filterHooks
}

// sinks receive the filtered stream. Text and passed sequences go to both
// in order; emu must be fed before a query is answered so the cursor is
// current.
type sinks struct {
	emu func([]byte)
	ui  *[]byte
}

func (f *filter) write(p []byte, out sinks) {
	// start begins the pending run of p that both sinks take as it is:
	// text and the plain CSI sequences within it (see plainCSI).
	start := 0
	flushText := func(end int) {
		if end > start {
			out.emu(p[start:end])
			*out.ui = append(*out.ui, p[start:end]...)
		}
	}
	for i := 0; i < len(p); i++ {
		if f.st == stGround {
			j := bytes.IndexByte(p[i:], 0x1b)
			if j < 0 {
				break
			}
			i += j
			if n := plainCSI(p[i:]); n > 0 {
				i += n - 1
				continue
			}
			flushText(i)
			f.st = stEsc
			f.seq = append(f.seq[:0], 0x1b)
			start = -1
			continue
		}
		b := p[i]
		f.seq = append(f.seq, b)
		if r, done := f.step(b); done {
			f.finish(r, out)
			f.st = stGround
			f.seq = f.seq[:0]
			start = i + 1
		}
	}
	if f.st == stGround && start >= 0 {
		flushText(len(p))
	}
}

// plainCSI returns the length of the CSI sequence b starts with when it is
// complete in b and plain — numeric parameters only, within maxCSI, and a
// final byte csi() passes to both sinks without a side effect (not a
// query, not a scroll region) — and 0 otherwise. Such a sequence (colours,
// cursor moves, erases: most sequences of busy output) stays in the text
// run, so a read is handed on in a few pieces rather than one or two per
// sequence, and is not collected byte by byte into f.seq.
func plainCSI(b []byte) int {
	if len(b) < 3 || b[1] != '[' {
		return 0
	}
	for k := 2; k < len(b) && k <= maxCSI; k++ {
		c := b[k]
		if c >= '0' && c <= ';' { // digits, ':' and ';'
			continue
		}
		if c >= 0x40 && c <= 0x7e && c != 'c' && c != 'n' && c != 't' && c != 'r' {
			return k + 1
		}
		return 0
	}
	return 0
}

// step advances the state machine by one byte of a sequence and reports
// whether the sequence is complete, with its route.
func (f *filter) step(b byte) (route, bool) {
	switch f.st {
	case stEsc:
		if b == 'c' { // RIS: full reset, scroll region included
			f.hooks.scrollRegion(true)
		}
		switch {
		case b == '[':
			f.st = stCSI
		case b == ']':
			f.st, f.over = stOSC, false
		case b == 'P' || b == 'X' || b == '^' || b == '_':
			f.st = stStr
		case b >= 0x20 && b <= 0x2f:
			f.st = stEscInter
		case b == 0x1b:
			f.seq = f.seq[:1] // ESC ESC: restart
		default:
			return toBoth, true // two-byte sequence (ESC 7, ESC M, …)
		}
	case stEscInter:
		if b >= 0x30 && b <= 0x7e {
			return toBoth, true
		}
		if len(f.seq) > 8 {
			return toNone, true
		}
	case stCSI:
		if b >= 0x40 && b <= 0x7e {
			return f.csi(), true
		}
		if b < 0x20 || len(f.seq) > maxCSI {
			return toNone, true
		}
	case stOSC:
		switch b {
		case 0x07:
			f.oscDone(len(f.seq) - 1)
			return toUIIfPlain(f.seq), true
		case 0x1b:
			f.st = stOSCEsc
		default:
			if len(f.seq) > maxOSC {
				f.over = true
				f.seq = f.seq[:2]
			}
		}
	case stOSCEsc:
		if b == '\\' {
			f.oscDone(len(f.seq) - 2)
			return toUIIfPlain(f.seq), true
		}
		f.st = stOSC
	case stStr:
		if b == 0x1b {
			f.st = stStrEsc
		} else if len(f.seq) > maxOSC {
			f.seq = f.seq[:2]
		}
	case stStrEsc:
		if b == '\\' {
			return toNone, true
		}
		f.st = stStr
	}
	return toNone, false
}

func (f *filter) finish(r route, out sinks) {
	if r&toEmu != 0 {
		out.emu(f.seq)
	}
	if r&toUI != 0 {
		*out.ui = append(*out.ui, f.seq...)
	}
}

// csi classifies a complete CSI sequence in f.seq and answers queries.
func (f *filter) csi() route {
	body := f.seq[2 : len(f.seq)-1] // parameters and intermediates
	final := f.seq[len(f.seq)-1]
	var marker byte
	if len(body) > 0 && body[0] >= 0x3c && body[0] <= 0x3f {
		marker = body[0]
		body = body[1:]
	}
	for _, c := range body {
		if c >= 0x20 && c <= 0x2f {
			// Intermediates (cursor style `CSI 2 SP q`, DECRQM `CSI ? 2026 $ p`):
			// vt10x ignores the intermediate and acts on the final byte.
			if final == 'q' && marker == 0 {
				return toUI
			}
			return toNone
		}
	}
	switch {
	case marker == '>' || marker == '<' || marker == '=':
		if marker == '>' && final == 'c' { // DA2
			f.hooks.reply([]byte("\x1b[>1;10;0c"))
		}
		return toNone // kitty push/pop, XTVERSION, modifyOtherKeys
	case marker == '?' && final == 'u':
		return toNone // kitty keyboard query: unsupported, so no answer
	case final == 'c' && marker == 0:
		f.hooks.reply([]byte("\x1b[?62;22c")) // DA1
		return toNone
	case final == 'n':
		switch string(body) {
		case "5":
			f.hooks.reply([]byte("\x1b[0n"))
		case "6":
			x, y := f.hooks.cursor()
			pre := ""
			if marker == '?' {
				pre = "?"
			}
			f.hooks.reply([]byte("\x1b[" + pre + strconv.Itoa(y+1) + ";" + strconv.Itoa(x+1) + "R"))
		}
		return toNone
	case final == 't':
		if string(body) == "18" {
			c, r := f.hooks.size()
			f.hooks.reply([]byte("\x1b[8;" + strconv.Itoa(r) + ";" + strconv.Itoa(c) + "t"))
		}
		return toNone
	case marker == '?' && (final == 'h' || final == 'l'):
		return toBoth
	case final == 'r' && marker == 0:
		_, rows := f.hooks.size()
		top, bottom, _ := bytes.Cut(body, []byte{';'})
		t, _ := strconv.Atoi(string(top))
		bt, _ := strconv.Atoi(string(bottom))
		f.hooks.scrollRegion(t <= 1 && (bt == 0 || bt >= rows))
		return toBoth
	case marker != 0:
		return toUI
	}
	return toBoth
}

// oscDone hands a complete OSC (payload ends at end) to the hooks and
// answers colour and status-protocol probes.
func (f *filter) oscDone(end int) {
	if f.over {
		return
	}
	payload := f.seq[2:end]
	num, rest, _ := bytes.Cut(payload, []byte{';'})
	n, err := strconv.Atoi(string(num))
	if err != nil {
		return
	}
	switch {
	case (n == 10 || n == 11) && string(rest) == "?":
		col := "rgb:d4d4/d4d4/d4d4"
		if n == 11 {
			col = "rgb:1e1e/1e1e/1e1e"
		}
		f.hooks.reply([]byte("\x1b]" + strconv.Itoa(n) + ";" + col + "\x1b\\"))
	case n == StatusOSC && string(rest) == "?":
		f.hooks.reply([]byte(StatusProbeAnswer))
	}
	f.hooks.osc(n, string(rest))
}

// toUIIfPlain passes titles and hyperlinks to xterm.js; queries, status
// reports and clipboard writes (OSC 52) stay in the backend.
func toUIIfPlain(seq []byte) route {
	num, _, _ := bytes.Cut(seq[2:], []byte{';'})
	switch string(num) {
	case "0", "1", "2", "8":
		return toUI
	}
	return toNone
}

// StatusOSC is the Program Status Protocol's OSC number. Codex emits
// `OSC 7501 ; state=…` on its own; Claude Code probes with `OSC 7501 ; ?`
// and reports once the terminal answers.
const StatusOSC = 7501

// StatusProbeAnswer is the pane's answer to the status-protocol probe.
const StatusProbeAnswer = "\x1b]7501;?\x1b\\"
