package connect

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A body that never arrives, or a connection left open, does not hold the
// server forever; one address cannot take every connection.
func TestServerTimeoutsAndConnectionCap(t *testing.T) {
	e := newEnvWith(t, ServerConfig{ReadTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond, MaxConnsPerAddr: 4})
	addr := e.srv.Addr()
	closedWithin := func(c net.Conn, d time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(d))
		_, err := io.Copy(io.Discard, c)
		return err == nil // EOF from the server, not our deadline
	}
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// Headers promise a body that never comes.
	slow := dial()
	io.WriteString(slow, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	if !closedWithin(slow, 3*time.Second) {
		t.Fatal("a body that never arrives kept the connection open")
	}
	// An idle keep-alive connection is closed.
	idle := dial()
	io.WriteString(idle, "GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("keep-alive request: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	if !closedWithin(idle, 3*time.Second) {
		t.Fatal("an idle keep-alive connection stayed open")
	}
	// Four connections held open from one address; the fifth is turned away.
	for i := 0; i < 4; i++ {
		io.WriteString(dial(), "GET / HTTP/1.1\r\n") // headers never finish
	}
	time.Sleep(50 * time.Millisecond)
	extra := dial()
	io.WriteString(extra, "GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	extra.SetReadDeadline(time.Now().Add(3 * time.Second))
	resp, err = http.ReadResponse(bufio.NewReader(extra), nil)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("connection over the per-address cap: %v %v", resp, err)
	}
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), "Too many connections") {
		t.Fatalf("503 body %q", b)
	}
}
