package terminal

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// recHooks records every hook call with how many emulator-bound bytes
// came before it: a query must be answered after everything written
// before it reached the emulator.
type recHooks struct {
	emu   *[]byte
	calls []string
}

func (h *recHooks) note(s string)  { h.calls = append(h.calls, fmt.Sprintf("%d:%s", len(*h.emu), s)) }
func (h *recHooks) reply(b []byte) { h.note("reply " + string(b)) }
func (h *recHooks) cursor() (int, int) {
	h.note("cursor")
	return 3, 4
}
func (h *recHooks) size() (int, int)            { h.note("size"); return 80, 24 }
func (h *recHooks) osc(num int, payload string) { h.note(fmt.Sprintf("osc %d %s", num, payload)) }
func (h *recHooks) scrollRegion(full bool)      { h.note(fmt.Sprintf("region %v", full)) }

// filterRun feeds in to a fresh filter in the given pieces and returns
// what each sink and the hooks received.
func filterRun(in []byte, pieces []int) (emu, ui []byte, calls []string) {
	h := &recHooks{emu: &emu}
	f := filter{hooks: h}
	for off, k := 0, 0; off < len(in); k++ {
		n := min(pieces[k%len(pieces)], len(in)-off)
		f.write(in[off:off+n], sinks{emu: func(b []byte) { emu = append(emu, b...) }, ui: &ui})
		off += n
	}
	return emu, ui, h.calls
}

// Plain CSI sequences are passed on inside text runs when a read holds
// them whole (plainCSI); fed one byte at a time every sequence goes
// through the state machine. Both must give each sink and hook the same.
func TestFilterPlainCSIMatchesByteByByte(t *testing.T) {
	seqs := []string{
		"\x1b[0m", "\x1b[1;34m", "\x1b[38;2;10;20;30m", "\x1b[38:5:100m", "\x1b[2K", "\x1b[K", "\x1b[5G",
		"\x1b[3;7H", "\x1b[H", "\x1b[2J", "\x1b[A", "\x1b[12X", "\x1b[m",
		"\x1b[c", "\x1b[6n", "\x1b[?6n", "\x1b[5n", "\x1b[18t", "\x1b[3;8r", "\x1b[r", "\x1b[>c", "\x1b[?u",
		"\x1b[>1u", "\x1b[?1049h", "\x1b[?25l", "\x1b[2 q", "\x1b[?2026$p", "\x1b[=5u", "\x1b[1;2\x07m",
		"\x1b[" + strings.Repeat("1;", 31) + "m", "\x1b[" + strings.Repeat("1;", 32) + "m", "\x1b[" + strings.Repeat("1", 62) + "m",
		"\x1b[" + strings.Repeat("1", 63) + "m", "\x1b[1\x7fm", "\x1b[1é", "\x1b7", "\x1bc", "\x1b(B", "\x1b\x1b[1m",
		"\x1b]0;title\x07", "\x1b]11;?\x1b\\", "\x1b]7501;?\x07", "\x1bP+q544e\x1b\\", "\x1b]52;c;aGk=\x1b\\",
	}
	for seed := int64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewSource(seed))
		var sb strings.Builder
		for sb.Len() < 4<<10 {
			if r.Intn(3) == 0 {
				sb.WriteString(seqs[r.Intn(len(seqs))])
			} else {
				sb.WriteString([]string{"text ", "日本語", "\r\n", "x", "\t"}[r.Intn(5)])
			}
		}
		in := []byte(sb.String())
		wantEmu, wantUI, wantCalls := filterRun(in, []int{1})
		pieces := []int{len(in)}
		if seed%2 == 0 {
			pieces = []int{1 + r.Intn(300), 1 + r.Intn(40), 1 + r.Intn(5)}
		}
		emu, ui, calls := filterRun(in, pieces)
		if string(emu) != string(wantEmu) {
			t.Fatalf("seed %d: emulator bytes differ\n got %q\nwant %q", seed, emu, wantEmu)
		}
		if string(ui) != string(wantUI) {
			t.Fatalf("seed %d: UI bytes differ\n got %q\nwant %q", seed, ui, wantUI)
		}
		if strings.Join(calls, "|") != strings.Join(wantCalls, "|") {
			t.Fatalf("seed %d: hook calls differ\n got %q\nwant %q", seed, calls, wantCalls)
		}
	}
}
