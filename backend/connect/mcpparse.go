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

var errAmbiguous = errors.New("ambiguous request")

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
	if raw, ok := top["method"]; ok && json.Unmarshal(raw, &r.Method) != nil {
		return nil, fmt.Errorf("%w: method must be a string", errAmbiguous)
	}
	if raw, ok := top["params"]; ok && len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '{' {
		params, err := strictObject(raw)
		if err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
		if n, ok := params["name"]; ok && r.Method == "tools/call" && json.Unmarshal(n, &r.Tool) != nil {
			return nil, fmt.Errorf("%w: params.name must be a string", errAmbiguous)
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
