package notes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// field is one tool argument: its JSON Schema, whether it is required, and
// an extra check. The same list builds the advertised schema and validates
// calls, so the two cannot drift apart.
type field struct {
	name     string
	schema   map[string]any
	required bool
	check    func(raw json.RawMessage) error
}

type spec []field

func (sp spec) schema() json.RawMessage {
	props := map[string]any{}
	req := []string{}
	for _, f := range sp {
		props[f.name] = f.schema
		if f.required {
			req = append(req, f.name)
		}
	}
	b, err := json.Marshal(map[string]any{
		"type": "object", "properties": props, "required": req, "additionalProperties": false,
	})
	if err != nil {
		panic("encoding tool schema: " + err.Error())
	}
	return b
}

// argError is a schema error; its message names the field and says what to send.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

func argErr(format string, a ...any) error { return &argError{msg: fmt.Sprintf(format, a...)} }

// decode validates raw against sp and unmarshals it into dst.
func (sp spec) decode(raw json.RawMessage, dst any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return argErr("arguments must be a JSON object: %v", err)
	}
	if hasNUL(raw) {
		// The team server's PostgreSQL cannot store one, and no text needs
		// it: refuse it on every engine alike.
		return argErr("an argument holds a NUL character (\\u0000), which cannot be stored; remove it and send the call again")
	}
	known := make(map[string]*field, len(sp))
	for i := range sp {
		known[sp[i].name] = &sp[i]
	}
	var unknown []string
	for k := range m {
		if known[k] == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return argErr("unknown argument %q; this tool accepts: %s", unknown[0], sp.names())
	}
	for i := range sp {
		f := &sp[i]
		v, ok := m[f.name]
		if !ok || string(v) == "null" {
			if f.required {
				return argErr("missing required argument %s%s", f.name, hint(f))
			}
			continue
		}
		if err := checkType(f, v); err != nil {
			return err
		}
		if f.check != nil {
			if err := f.check(v); err != nil {
				return argErr("invalid %s: %v", f.name, err)
			}
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return argErr("invalid arguments: %v", err)
	}
	return nil
}

// hasNUL reports whether the JSON text v holds an escaped NUL character
// (\u0000); an escaped backslash followed by "u0000" is not one.
func hasNUL(v []byte) bool {
	for i := 0; i+1 < len(v); i++ {
		if v[i] != '\\' {
			continue
		}
		if v[i+1] == 'u' && i+5 < len(v) && string(v[i+2:i+6]) == "0000" {
			return true
		}
		i++ // the escaped character
	}
	return false
}

func (sp spec) names() string {
	n := make([]string, len(sp))
	for i, f := range sp {
		n[i] = f.name
	}
	return strings.Join(n, ", ")
}

func hint(f *field) string {
	if d, ok := f.schema["description"].(string); ok && d != "" {
		return " (" + strings.TrimSuffix(d, ".") + ")"
	}
	return ""
}

func checkType(f *field, v json.RawMessage) error {
	want, _ := f.schema["type"].(string)
	first := bytes.TrimSpace(v)[0]
	ok := true
	switch want {
	case "string":
		ok = first == '"'
		if ok {
			if enum, has := f.schema["enum"].([]string); has {
				var s string
				_ = json.Unmarshal(v, &s)
				if !contains(enum, s) {
					return argErr("invalid %s %q: must be one of %s", f.name, s, strings.Join(enum, ", "))
				}
			}
			if max, has := f.schema["maxLength"].(int); has {
				var s string
				_ = json.Unmarshal(v, &s)
				if len([]rune(s)) > max {
					return argErr("%s is longer than %d characters", f.name, max)
				}
			}
		}
	case "integer":
		var n json.Number
		ok = json.Unmarshal(v, &n) == nil && first != '"'
		if ok {
			_, err := strconv.ParseInt(string(n), 10, 64)
			ok = err == nil
		}
		if ok {
			if min, has := f.schema["minimum"].(int); has {
				i, _ := strconv.ParseInt(string(n), 10, 64)
				if i < int64(min) {
					return argErr("invalid %s %d: must be at least %d", f.name, i, min)
				}
			}
			if max, has := f.schema["maximum"].(int); has {
				i, _ := strconv.ParseInt(string(n), 10, 64)
				if i > int64(max) {
					return argErr("invalid %s %d: must be at most %d", f.name, i, max)
				}
			}
		}
	case "boolean":
		ok = first == 't' || first == 'f'
	case "array":
		ok = first == '['
	case "object":
		ok = first == '{'
	}
	if !ok {
		return argErr("invalid %s: must be %s %s%s", f.name, article(want), want, hint(f))
	}
	return nil
}

func article(t string) string {
	if t == "integer" || t == "object" || t == "array" {
		return "an"
	}
	return "a"
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Version is an expected_version argument. It is an integer; a quoted
// integer ("7") is accepted too because some hosts stringify numbers.
type Version int64

// UnmarshalJSON accepts 7 or "7".
func (v *Version) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(bytes.TrimSpace(b), `"`))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return fmt.Errorf("expected_version must be a positive integer, got %s", b)
	}
	*v = Version(n)
	return nil
}

func checkVersion(raw json.RawMessage) error {
	var v Version
	return v.UnmarshalJSON(raw)
}

func checkKey(raw json.RawMessage) error {
	var k string
	if err := json.Unmarshal(raw, &k); err != nil {
		return fmt.Errorf("must be a string such as a fresh UUID")
	}
	if n := len(k); n < MinKeyChars || n > MaxKeyChars {
		return fmt.Errorf("must be %d–%d characters (use a fresh UUID for every new write), got %d", MinKeyChars, MaxKeyChars, n)
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':') {
			return fmt.Errorf("may contain only letters, digits and - _ . : (use a fresh UUID)")
		}
	}
	return nil
}

// Common argument definitions.
func idField(name, desc string) field {
	return field{name: name, required: true, schema: map[string]any{"type": "string", "description": desc, "maxLength": 200}}
}

var (
	versionField = field{name: "expected_version", required: true, check: checkVersion, schema: map[string]any{
		"type": "integer", "minimum": 1,
		"description": "The Note's version from your latest list_note_tabs or read_note_tab. The write is refused if the Note changed since.",
	}}
	keyField = field{name: "idempotency_key", required: true, check: checkKey, schema: map[string]any{
		"type": "string", "minLength": MinKeyChars, "maxLength": MaxKeyChars,
		"description": "A fresh unique string (e.g. a UUID) for this intended write. Resending the same key returns the first result instead of writing twice; after a version_conflict use a NEW key.",
	}}
)

func optString(name, desc string, max int) field {
	return field{name: name, schema: map[string]any{"type": "string", "description": desc, "maxLength": max}}
}

func optInt(name, desc string, min int) field {
	return field{name: name, schema: map[string]any{"type": "integer", "description": desc, "minimum": min}}
}
