package main

import (
	"fmt"
	"io"
	"net"
	"sync"
)

// gate is a TCP relay in front of the balancer that can take the team
// server off the network: blocked, it cuts every open connection and
// closes new ones as soon as they arrive, as a lost network does for the
// desktops (TLS is end to end: the gate sees only bytes).
type gate struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	blocked bool
	conns   map[net.Conn]struct{}
}

func newGate(target string) (*gate, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("opening the gate's port: %w", err)
	}
	g := &gate{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	go g.serve()
	return g, nil
}

func (g *gate) addr() string { return g.ln.Addr().String() }

func (g *gate) serve() {
	for {
		c, err := g.ln.Accept()
		if err != nil {
			return
		}
		if !g.track(c) {
			c.Close()
			continue
		}
		go g.relay(c)
	}
}

// track remembers c unless the gate is blocked.
func (g *gate) track(c net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.blocked {
		return false
	}
	g.conns[c] = struct{}{}
	return true
}

func (g *gate) forget(c net.Conn) {
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()
	c.Close()
}

func (g *gate) relay(c net.Conn) {
	defer g.forget(c)
	up, err := net.Dial("tcp", g.target)
	if err != nil {
		return
	}
	if !g.track(up) {
		up.Close()
		return
	}
	defer g.forget(up)
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done // either side ending ends both
}

// setBlocked takes the server off the network (true) or back on.
func (g *gate) setBlocked(on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.blocked = on
	if on {
		for c := range g.conns {
			c.Close()
			delete(g.conns, c)
		}
	}
}

func (g *gate) close() {
	g.ln.Close()
	g.setBlocked(true)
}
