package connect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// rpcRequest is one JSON-RPC request read strictly by the gate. Body is the
// same request written back in canonical form: it is what the SDK reads,
// so the gate's decision and what runs come from one parse.
type rpcRequest struct {
	ID     json.RawMessage
	Method string
	Tool   string // params.name of a tools/call
	Body   []byte
}

var (
	errAmbiguous = errors.New("ambiguous request")
	errInvalid   = errors.New("invalid request")
)

// isJSONKind reports whether raw starts like one of kinds: '{' object,
// '"' string, 'n' number, 'l' null.
func isJSONKind(raw json.RawMessage, kinds ...byte) bool {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return false
	}
	k := b[0]
	switch {
	case k == '-' || k >= '0' && k <= '9':
		k = 'n'
	case bytes.Equal(b, []byte("null")):
		k = 'l'
	}
	return bytes.IndexByte(kinds, k) >= 0
}

// parseRPC reads body as exactly one JSON object: no trailing data, and no
// key twice, not even in another letter case (encoding/json matches keys
// case-insensitively and the SDK's reader may not), at the top level and
// in params.
func parseRPC(body []byte) (*rpcRequest, error) {
	top, err := strictObject(body)
	if err != nil {
		return nil, err
	}
	r := &rpcRequest{ID: top["id"]}
	var version string
	if json.Unmarshal(top["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, fmt.Errorf("%w: jsonrpc must be \"2.0\"", errInvalid)
	}
	if raw, ok := top["method"]; !ok || json.Unmarshal(raw, &r.Method) != nil || r.Method == "" {
		return nil, fmt.Errorf("%w: method must be a non-empty string", errInvalid)
	}
	if id, ok := top["id"]; ok && !isJSONKind(id, '"', 'n') {
		return nil, fmt.Errorf("%w: id must be a string or a number", errInvalid)
	}
	if raw, ok := top["params"]; ok && !isJSONKind(raw, '{', 'l') {
		return nil, fmt.Errorf("%w: params must be an object", errInvalid)
	} else if ok && isJSONKind(raw, '{') {
		params, err := strictObject(raw)
		if err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
		if r.Method == "tools/call" {
			if n, ok := params["name"]; ok && json.Unmarshal(n, &r.Tool) != nil {
				return nil, fmt.Errorf("%w: params.name must be a string", errInvalid)
			}
			if a, ok := params["arguments"]; ok && !isJSONKind(a, '{', 'l') {
				return nil, fmt.Errorf("%w: params.arguments must be an object", errInvalid)
			}
		}
	}
	if r.Body, err = json.Marshal(top); err != nil {
		return nil, fmt.Errorf("%w: %v", errAmbiguous, err)
	}
	return r, nil
}

// strictObject decodes one JSON object into its members, refusing
// duplicate keys (case-insensitively) and anything after the object.
func strictObject(b []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%w: the body must be one JSON-RPC request object", errAmbiguous)
	}
	out := map[string]json.RawMessage{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: the body is not valid JSON", errAmbiguous)
		}
		key, _ := tok.(string)
		if seen[strings.ToLower(key)] {
			return nil, fmt.Errorf("%w: member %q appears twice (keys differing only in case count as the same)", errAmbiguous, key)
		}
		seen[strings.ToLower(key)] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%w: the body is not valid JSON", errAmbiguous)
		}
		out[key] = v
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, fmt.Errorf("%w: the body is not valid JSON", errAmbiguous)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the request object; send one request per POST", errAmbiguous)
	}
	return out, nil
}
