package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// loadResult is one fixed-rate attack on the tool endpoint.
type loadResult struct {
	Sent       int
	OK         int
	Errors     int            // HTTP errors, JSON-RPC errors and tool errors
	Why        map[string]int // error kind → count, for the report
	Throughput float64        // successful calls per second
	P50, P99   time.Duration  // of every call, errors included
}

// toolCall is the JSON-RPC body of one tools/call.
func toolCall(id int, tool string, args map[string]any) []byte {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	return body
}

func mcpHeaders(token string) http.Header {
	return http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {"2025-06-18"},
		"Authorization":        {"Bearer " + token},
	}
}

// toolAnswer reads a tools/call answer: the tool's JSON result (from
// structuredContent or the first text block) and what went wrong, if
// anything ("" when the tool succeeded).
func toolAnswer(code int, body []byte) (map[string]any, string) {
	if code != http.StatusOK {
		return nil, "HTTP " + strconv.Itoa(code)
	}
	// The endpoint answers JSON, or one SSE event when the client asks for it.
	if i := bytes.Index(body, []byte("data: ")); i >= 0 && bytes.HasPrefix(bytes.TrimSpace(body), []byte("event:")) {
		body = body[i+len("data: "):]
	}
	var out struct {
		Error  *struct{ Message string } `json:"error"`
		Result *struct {
			IsError           bool                    `json:"isError"`
			StructuredContent map[string]any          `json:"structuredContent"`
			Content           []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, "unreadable answer"
	}
	if out.Error != nil {
		return nil, "JSON-RPC error"
	}
	if out.Result == nil {
		return nil, "no result"
	}
	res := out.Result.StructuredContent
	if res == nil && len(out.Result.Content) > 0 {
		json.Unmarshal([]byte(out.Result.Content[0].Text), &res)
	}
	if out.Result.IsError {
		if e, ok := res["error"].(string); ok {
			return res, "tool error: " + e
		}
		return res, "tool error"
	}
	return res, ""
}

// attack sends rate requests a second for d through client and reads
// every answer with judge, which says what went wrong ("" for nothing).
func attack(client *http.Client, tr vegeta.Targeter, rate int, d time.Duration, judge func(*vegeta.Result) string) loadResult {
	atk := vegeta.NewAttacker(vegeta.Client(client), vegeta.Workers(32), vegeta.MaxWorkers(512), vegeta.Timeout(30*time.Second))
	r := loadResult{Why: map[string]int{}}
	var lat []time.Duration
	var first, last time.Time
	for res := range atk.Attack(tr, vegeta.Rate{Freq: rate, Per: time.Second}, d, "server") {
		r.Sent++
		lat = append(lat, res.Latency)
		if first.IsZero() || res.Timestamp.Before(first) {
			first = res.Timestamp
		}
		if res.End().After(last) {
			last = res.End()
		}
		// judge sees every answer, failed ones too: a write load frees
		// its note there.
		why := judge(res)
		if res.Error != "" {
			why = "transport: " + res.Error
		}
		if why != "" {
			r.Errors++
			r.Why[why]++
			continue
		}
		r.OK++
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r.P50, r.P99 = quantile(lat, .5), quantile(lat, .99)
	if span := last.Sub(first); span > 0 {
		r.Throughput = float64(r.OK) / span.Seconds()
	}
	return r
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1))]
}

// searchTargets are full-text searches (tool, with base's arguments and a
// query) over a few words the seeded notes and articles hold.
func searchTargets(base, token, tool string, args map[string]any) vegeta.Targeter {
	words := []string{"launch", "budget", "checklist", "review", "roadmap", "nothing-matches"}
	var mu sync.Mutex
	n := 0
	hdr := mcpHeaders(token)
	return func(t *vegeta.Target) error {
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		a := map[string]any{"query": words[i%len(words)]}
		for k, v := range args {
			a[k] = v
		}
		*t = vegeta.Target{Method: http.MethodPost, URL: base + "/mcp", Header: hdr, Body: toolCall(i, tool, a)}
		return nil
	}
}

// offered lists the tools the endpoint offers token.
func offered(client *http.Client, base, token string) (map[string]bool, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", bytes.NewReader(body))
	req.Header = mcpHeaders(token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Result struct{ Tools []struct{ Name string } }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("reading tools/list: %w", err)
	}
	names := map[string]bool{}
	for _, t := range out.Result.Tools {
		names[t.Name] = true
	}
	return names, nil
}

// writer is one note a guarded writer owns, with the version it last saw.
type writer struct {
	slot    int
	note    string
	tab     string
	version int64
}

// writeLoad sends edit_note_tab with expected_version and a fresh
// idempotency_key. Each note has at most one write in flight, so every
// write expects the version the last one returned: a conflict is an
// error of the server, not of the load.
type writeLoad struct {
	base, token string
	free        chan *writer
	byslot      []*writer
	mu          sync.Mutex
	n           int
}

func newWriteLoad(base, token string, ws []*writer) *writeLoad {
	l := &writeLoad{base: base, token: token, free: make(chan *writer, len(ws)), byslot: ws}
	for i, w := range ws {
		w.slot = i
		l.free <- w
	}
	return l
}

func (l *writeLoad) target(t *vegeta.Target) error {
	w := <-l.free
	l.mu.Lock()
	l.n++
	i := l.n
	l.mu.Unlock()
	text := fmt.Sprintf("# Launch checklist\n\nRevision %d of the budget review.\n", i)
	*t = vegeta.Target{Method: http.MethodPost, URL: l.base + "/mcp?w=" + strconv.Itoa(w.slot), Header: mcpHeaders(l.token),
		Body: toolCall(i, "edit_note_tab", map[string]any{"note_id": w.note, "tab_id": w.tab, "expected_version": w.version,
			"idempotency_key": fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), i), "operation": "replace_text", "text": text})}
	return nil
}

// judge reads a write's answer and frees its note with the new version.
// After a failed write the note's version is unknown, so the next write
// on it reads the current version from the conflict it gets.
func (l *writeLoad) judge(res *vegeta.Result) string {
	u, _ := url.Parse(res.URL)
	slot, _ := strconv.Atoi(u.Query().Get("w"))
	w := l.byslot[slot]
	defer func() { l.free <- w }()
	out, why := toolAnswer(int(res.Code), res.Body)
	if v, ok := out["version"].(float64); ok && why == "" {
		w.version = int64(v)
	} else if v, ok := out["current_version"].(float64); ok {
		w.version = int64(v)
	}
	return why
}
