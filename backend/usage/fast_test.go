package usage

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/osfoundry/desktop/backend/testkit/fixtures"
	"github.com/osfoundry/desktop/backend/usage/usagetest"
)

// The fast reading of an assistant record gives what the full decoder
// gives, on recorded lines and on shapes meant to mislead it.
func TestFastMatchesDecoder(t *testing.T) {
	var lines [][]byte
	for _, store := range []string{"claude-2.1.328", "claude-headless-2.1.328.tools", "claude-headless-2.1.328.mcp"} {
		home, err := fixtures.Store(store)
		must(t, err)
		files, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
		for _, p := range files {
			f, err := os.Open(p)
			must(t, err)
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, maxLine)
			for sc.Scan() {
				lines = append(lines, append([]byte(nil), sc.Bytes()...))
			}
			f.Close()
		}
	}
	lines = append(lines,
		usagetest.ClaudeLine("s", usagetest.Request{At: at("2026-12-04T10:00:00Z"), MsgID: "msg_1", ReqID: "req_1", Model: "claude-haiku-4-5", In: 1, Out: 2, CW: 3, CR: 4, Pad: 5000}),
		// message.model before content, and a tool call whose input has
		// model, id and usage keys of its own.
		[]byte(`{"type":"assistant","timestamp":"2026-12-04T10:00:00.000Z","requestId":"req_9","message":{"model":"claude-opus-4-1","id":"msg_9","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Task","input":{"model":"haiku","id":"msg_fake","usage":{"input_tokens":999,"output_tokens":999},"text":"a \"quoted\" } ] brace"}}],"usage":{"input_tokens":7,"output_tokens":8,"cache_creation_input_tokens":9,"cache_read_input_tokens":10}}}`),
		// a progress record: a sub-agent's assistant message nested in it
		// is not a request of this session (ccusage reads only top-level
		// message.usage).
		[]byte(`{"type":"progress","timestamp":"2026-12-04T10:00:00.000Z","data":{"message":{"type":"assistant","timestamp":"2026-12-04T10:00:00.000Z","requestId":"req_p","message":{"model":"claude-haiku-4-5","id":"msg_p","type":"message","content":[],"usage":{"input_tokens":5,"output_tokens":5}}}}}`),
		// escapes in a field the fast path reads: left to the decoder.
		[]byte(`{"type":"assistant","timestamp":"2026-12-04T10:00:00.000Z","requestId":"req_\u0031","message":{"model":"claude-opus-4-1","id":"msg_10","content":"x","usage":{"input_tokens":1,"output_tokens":1}}}`),
	)
	checked := 0
	for _, line := range lines {
		var buf []byte
		got, ok, corrupt := parseClaude(line, &buf)
		want, wok, wcorrupt := decodeClaude(line)
		if p, priced := PriceOf(want.model); priced {
			want.cost, want.priced = cost(p, want.in, want.out, want.cacheWrite, want.cacheRead), true
		}
		if ok != wok || corrupt != wcorrupt || (ok && got != want) {
			t.Errorf("line %.120s…\nfast %+v %v %v\nfull %+v %v %v", line, got, ok, corrupt, want, wok, wcorrupt)
		}
		if ok {
			checked++
		}
	}
	if checked < 15 {
		t.Fatalf("only %d assistant records checked", checked)
	}
}
