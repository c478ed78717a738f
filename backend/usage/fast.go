package usage

import (
	"bytes"
	"strconv"
	"time"
)

// fastClaude reads an assistant record whose message.content was already
// replaced by null (withoutContent) in one pass over its keys, without a
// JSON decoder: what is left is Claude Code's own fields. ok is false when
// the line does not look as expected (a key twice, an escaped value, a
// missing count); the caller then decodes it in full, so an unexpected
// shape costs time, never a wrong figure.
func fastClaude(short []byte) (e claudeEntry, reqID, msgID string, ok bool) {
	var ts, model string
	var seen [6]int // type=assistant, timestamp, model, id, requestId, requestRef
	var okIn, okOut, hasUsage bool
	for i := 0; ; {
		j := bytes.IndexByte(short[i:], '"')
		if j < 0 {
			break
		}
		start := i + j
		end := skipString(short, start)
		if end < 0 {
			return e, "", "", false
		}
		i = end
		if end >= len(short) || short[end] != ':' {
			continue // a value, not a key
		}
		key := short[start+1 : end-1]
		switch string(key) {
		case "type", "timestamp", "model", "id", "requestId", "requestRef":
			v, vend, good := rawString(short, end+1)
			if !good {
				if string(key) == "type" { // e.g. "type":null
					continue
				}
				return e, "", "", false
			}
			i = vend
			switch string(key) {
			case "type":
				switch v {
				case "assistant":
					seen[0]++
				case "message":
				default: // e.g. a progress record carrying a sub-agent's message
					return e, "", "", false
				}
			case "timestamp":
				ts = v
				seen[1]++
			case "model":
				model = v
				seen[2]++
			case "id":
				msgID = v
				seen[3]++
			case "requestId":
				reqID = v
				seen[4]++
			case "requestRef":
				if seen[4] == 0 && reqID == "" {
					reqID = v
				}
				seen[5]++
			}
		case "usage":
			if hasUsage || end+1 >= len(short) || short[end+1] != '{' {
				return e, "", "", false
			}
			vend := skipValue(short, end+1)
			if vend < 0 {
				return e, "", "", false
			}
			u := short[end+1 : vend]
			hasUsage = true
			e.in, okIn = intField(u, `"input_tokens":`)
			e.out, okOut = intField(u, `"output_tokens":`)
			e.cacheWrite, _ = intField(u, `"cache_creation_input_tokens":`)
			e.cacheRead, _ = intField(u, `"cache_read_input_tokens":`)
			i = vend
		}
	}
	for _, n := range seen {
		if n > 1 {
			return e, "", "", false
		}
	}
	if seen[0] != 1 || seen[1] != 1 || !hasUsage || !okIn || !okOut {
		return e, "", "", false
	}
	// requestRef is read when requestId is absent (Claude Code 2.1).
	if seen[4] == 1 && seen[5] == 1 && reqID == "" {
		return e, "", "", false
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return e, "", "", false
	}
	e.at, e.model = t.UnixMilli(), model
	return e, reqID, msgID, true
}

// rawString reads the string value starting at i; escaped values are left
// to the decoder (good is false).
func rawString(b []byte, i int) (v string, end int, good bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	j := bytes.IndexByte(b[i+1:], '"')
	if j < 0 || bytes.IndexByte(b[i+1:i+1+j], '\\') >= 0 {
		return "", i, false
	}
	return string(b[i+1 : i+1+j]), i + 2 + j, true
}

// intField is the integer value of the first key k in a usage object
// (its nested objects come after the four counts and use other names).
func intField(u []byte, k string) (int64, bool) {
	i := bytes.Index(u, []byte(k))
	if i < 0 {
		return 0, false
	}
	rest := u[i+len(k):]
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	return n, err == nil
}
