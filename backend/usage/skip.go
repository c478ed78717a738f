package usage

import "bytes"

var keyContent = []byte(`"content":`)

// withoutContent returns line with the value of its first "content" key
// replaced by null, or line itself when it has none or the value does not
// end. An assistant record's message.content (the answer, tool calls,
// thinking) is nearly all of its bytes and none of its usage: skipping it
// with a bracket scan is several times faster than decoding it. The first
// raw `"content":` is always a key (a quote inside a string is escaped),
// and nothing before an assistant record's message.content has one.
func withoutContent(line []byte, buf []byte) []byte {
	i := bytes.Index(line, keyContent)
	if i < 0 {
		return line
	}
	start := i + len(keyContent)
	for start < len(line) && (line[start] == ' ' || line[start] == '\t') {
		start++
	}
	end := skipValue(line, start)
	if end < 0 {
		return line
	}
	buf = append(buf[:0], line[:start]...)
	buf = append(buf, "null"...)
	return append(buf, line[end:]...)
}

var structural = []byte(`"[]{}`)

// skipValue returns the index just past the JSON value starting at i, or
// -1 when it does not end in b.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '[', '{':
	default: // a number, true, false or null: up to the next , } or ]
		for j := i; j < len(b); j++ {
			if c := b[j]; c == ',' || c == '}' || c == ']' {
				return j
			}
		}
		return -1
	}
	depth := 0
	for j := i; j < len(b); {
		k := bytes.IndexAny(b[j:], string(structural))
		if k < 0 {
			return -1
		}
		j += k
		switch b[j] {
		case '"':
			if j = skipString(b, j); j < 0 {
				return -1
			}
			continue
		case '[', '{':
			depth++
		default:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		j++
	}
	return -1
}

// skipString returns the index just past the string whose quote is at i.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		bs := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return j + 1
		}
		j++
	}
	return -1
}
