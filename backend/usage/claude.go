package usage

import (
	"bytes"
	"encoding/json"
	"time"
)

// claudeEntry is one assistant request's usage in a Claude Code log.
type claudeEntry struct {
	at         int64 // epoch ms
	key        string
	model      string
	in, out    int64
	cacheWrite int64
	cacheRead  int64
	cost       float64 // estimated USD, when priced
	priced     bool
}

func (e claudeEntry) tokens() int64 { return e.in + e.out + e.cacheWrite + e.cacheRead }

type claudeRecord struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	RequestID string `json:"requestId"`
	// Claude Code 2.1 records the request as requestRef.
	RequestRef string `json:"requestRef"`
	Message    struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage *struct {
			Input      int64 `json:"input_tokens"`
			Output     int64 `json:"output_tokens"`
			CacheWrite int64 `json:"cache_creation_input_tokens"`
			CacheRead  int64 `json:"cache_read_input_tokens"`
		} `json:"usage"`
	} `json:"message"`
}

var (
	markUsage     = []byte(`"usage"`)
	markAssistant = []byte(`"assistant"`)
)

// parseClaude reads one log line. ok is false for any line that is not an
// assistant record with usage (user records, summaries, corrupt lines).
// Like ccusage, a request is identified by message id + request id, so a
// response copied into a resumed or forked session counts once; a record
// missing either id is not deduplicated.
func parseClaude(line []byte, buf *[]byte) (e claudeEntry, ok bool, corrupt bool) {
	if !bytes.Contains(line, markUsage) || !bytes.Contains(line, markAssistant) {
		return e, false, false
	}
	short := withoutContent(line, *buf)
	if len(short) < len(line) {
		*buf = short[:0]
	}
	if fe, req, id, fast := fastClaude(short); fast {
		e = fe
		if id != "" && req != "" {
			e.key = id + ":" + req
		}
	} else {
		var full bool
		if e, full, corrupt = decodeClaude(short); !full {
			return e, false, corrupt
		}
	}
	if e.model == synthetic {
		return e, false, false
	}
	if p, ok := PriceOf(e.model); ok {
		e.cost, e.priced = cost(p, e.in, e.out, e.cacheWrite, e.cacheRead), true
	}
	return e, true, false
}

// synthetic is the model of the messages Claude Code writes itself (an
// API error shown as an answer): no request was made, ccusage skips them.
const synthetic = "<synthetic>"

// decodeClaude decodes a record in full (what fastClaude leaves).
func decodeClaude(line []byte) (e claudeEntry, ok bool, corrupt bool) {
	var r claudeRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return e, false, true
	}
	if r.Type != "assistant" || r.Message.Usage == nil {
		return e, false, false
	}
	t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		return e, false, true
	}
	u := r.Message.Usage
	e = claudeEntry{at: t.UnixMilli(), model: r.Message.Model,
		in: u.Input, out: u.Output, cacheWrite: u.CacheWrite, cacheRead: u.CacheRead}
	req := r.RequestID
	if req == "" {
		req = r.RequestRef
	}
	if r.Message.ID != "" && req != "" {
		e.key = r.Message.ID + ":" + req
	}
	return e, true, false
}
