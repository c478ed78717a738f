package connect

import (
	"io"
	"net"
	"sync"
	"time"
)

// Defaults for the HTTP server. A request body must arrive within
// DefaultReadTimeout (4 MB at the slowest link worth serving), an answer
// leave within DefaultWriteTimeout, and a kept-alive connection that says
// nothing is closed after DefaultIdleTimeout.
const (
	DefaultReadTimeout     = 30 * time.Second
	DefaultWriteTimeout    = 60 * time.Second
	DefaultIdleTimeout     = 2 * time.Minute
	DefaultMaxConnsPerAddr = 64
)

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// capListener refuses a connection when its address already holds max
// open ones: it answers 503 with Retry-After and closes it at once, so one
// client (or one misbehaving process on this machine) cannot take them all.
type capListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func newCapListener(ln net.Listener, max int) *capListener {
	if max <= 0 {
		max = DefaultMaxConnsPerAddr
	}
	return &capListener{Listener: ln, max: max, open: map[string]int{}}
}

const tooManyConns = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 63\r\n\r\nToo many connections from this address; close some, try again.\n"

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(addr); err == nil {
			addr = h
		}
		addr = limitKey(addr)
		l.mu.Lock()
		full := l.open[addr] >= l.max
		if !full {
			l.open[addr]++
		}
		l.mu.Unlock()
		if full {
			go refuseConn(c)
			continue
		}
		return &countedConn{Conn: c, release: func() { l.release(addr) }}, nil
	}
}

func refuseConn(c net.Conn) {
	c.SetDeadline(time.Now().Add(2 * time.Second))
	io.WriteString(c, tooManyConns)
	c.Close()
}

func (l *capListener) release(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[addr]--; l.open[addr] <= 0 {
		delete(l.open, addr)
	}
}

type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
