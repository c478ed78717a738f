package rulesupdate

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
)

// An address that cannot be reached says so in a sentence that says what
// to do, not Go's "Get …: dial tcp …" chain; nothing was changed.
func TestFetchUnreachableSaysWhatToDo(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err = Fetch(context.Background(), nil, "http://"+addr+"/rules.json")
	if err == nil {
		t.Fatal("fetched from a closed port")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "could not reach "+addr+" (") || !strings.Contains(msg, "check the address and your network connection, then try again") {
		t.Errorf("message = %q", msg)
	}
	if strings.Contains(msg, "Get \"") {
		t.Errorf("the message still carries the raw request: %q", msg)
	}
	if !errors.Is(err, ErrUnchanged) {
		t.Errorf("%v does not say nothing was changed", err)
	}
}
