// Package warm runs short pieces of work on goroutines kept from earlier
// work. A goroutine starts with an 8 KiB stack and Go grows it by copying;
// a bridge request (JSON decoding, the MCP SDK, then SQLite in modernc's
// transpiled C) needs tens of KiB, and on the fresh goroutine every HTTP
// request gets, that growth was a fifth of an allowed memory_search call in
// the bridge's profile (osfoundry-bench bridge). A kept goroutine has grown
// already. Workers are made as work needs them (a tool call may wait for a
// person's approval for minutes) and end after a minute without work.
package warm

import "time"

var work = make(chan func())

const idleFor = time.Minute

// Do runs f on an idle kept goroutine, or on a new one that is then kept,
// and returns when f has.
func Do(f func()) {
	done := make(chan struct{})
	g := func() { defer close(done); f() }
	select {
	case work <- g:
	default:
		go worker(g)
	}
	<-done
}

func worker(f func()) {
	f()
	idle := time.NewTimer(idleFor)
	defer idle.Stop()
	for {
		select {
		case f = <-work:
			f()
			idle.Reset(idleFor)
		case <-idle.C:
			return
		}
	}
}
