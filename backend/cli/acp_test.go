package cli

import (
	"bytes"
	"strings"
	"testing"
)

// A missing adapter or a stray argument says what to do.
func TestACPBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"stray argument", []string{"claude"}, 2, "usage: osfoundry acp"},
		{"adapter not installed", []string{"--", "osf-no-such-acp-adapter"}, 1, "osf-no-such-acp-adapter not found on PATH: install it"},
		{"model without a value", []string{"--model"}, 2, "--model needs a model id or name"},
		{"model followed by --", []string{"--model", "--", "x"}, 2, "--model needs a model id or name"},
		{"model, then the adapter", []string{"--model", "haiku", "--", "osf-no-such-acp-adapter"}, 1, "osf-no-such-acp-adapter not found on PATH"},
		{"model=, then the adapter", []string{"--model=haiku", "--", "osf-no-such-acp-adapter"}, 1, "osf-no-such-acp-adapter not found on PATH"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Run(&Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, append([]string{"acp"}, c.args...))
		if code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, errb.String(), c.code, c.want)
		}
	}
}
