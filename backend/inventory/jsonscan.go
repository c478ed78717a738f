package inventory

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// A small JSON walker for the index. Claude Code records carry tool output
// of 10–300 KB per line; decoding such a line with encoding/json to read
// three short strings costs about a millisecond, while walking its top-level
// keys and skipping values (strings are skipped with IndexByte) costs a few
// microseconds. The walker never allocates for skipped values and reports
// malformed input as "no more fields" rather than guessing.

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string that starts at b[i]
// (which must be '"'), or -1.
func skipString(b []byte, i int) int {
	i++
	for {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			return -1
		}
		q := i + k
		n := 0
		for p := q - 1; p >= i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// skipValue returns the index just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				if i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default:
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// eachField calls fn with every top-level key and raw value of the object in
// b until fn returns false. It reports whether b was a well-formed object
// up to where it stopped.
func eachField(b []byte, fn func(key, val []byte) bool) bool {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	for {
		i = skipWS(b, i)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			return true
		}
		if b[i] != '"' {
			return false
		}
		ke := skipString(b, i)
		if ke < 0 {
			return false
		}
		key := b[i+1 : ke-1]
		i = skipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		ve := skipValue(b, i)
		if ve < 0 {
			return false
		}
		if !fn(key, b[i:ve]) {
			return true
		}
		i = skipWS(b, ve)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		return i < len(b) && b[i] == '}'
	}
}

// eachElem calls fn with every element of the array in b until fn returns false.
func eachElem(b []byte, fn func(val []byte) bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return
	}
	i++
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] == ']' {
			return
		}
		ve := skipValue(b, i)
		if ve < 0 {
			return
		}
		if !fn(b[i:ve]) {
			return
		}
		i = skipWS(b, ve)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		return
	}
}

// field returns the raw value of a top-level key, or nil.
func field(b []byte, key string) []byte {
	var out []byte
	eachField(b, func(k, v []byte) bool {
		if string(k) == key {
			out = v
			return false
		}
		return true
	})
	return out
}

// jpath follows nested object keys.
func jpath(b []byte, keys ...string) []byte {
	for _, k := range keys {
		b = field(b, k)
		if b == nil {
			return nil
		}
	}
	return b
}

// str decodes a JSON string value; anything else gives "".
func str(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}

// num decodes a JSON number (or a numeric string) as int64.
func num(v []byte) int64 {
	if len(v) == 0 {
		return 0
	}
	if v[0] == '"' {
		v = []byte(str(v))
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(string(v), 64); err == nil {
		return int64(f)
	}
	return 0
}

// isTrue reports a JSON true.
func isTrue(v []byte) bool { return string(v) == "true" || string(v) == "1" }

// strField is str(field(b, key)).
func strField(b []byte, key string) string { return str(field(b, key)) }
