package tools

import "time"

// Tool handlers run on goroutines kept from earlier calls. A handler that
// reads SQLite (modernc's transpiled C) needs a stack of tens of KiB; on a
// fresh goroutine — every HTTP request of the bridge gets one — Go grows
// it from 8 KiB by copying, which the bridge's profile showed as a fifth
// of an allowed memory_search call. A kept goroutine has grown already.
// Workers are made as calls need them (a handler may wait for a person's
// approval for minutes) and end after a minute without work.

var warmWork = make(chan func())

const warmIdle = time.Minute

// runWarm runs f on an idle kept goroutine, or on a new one that is kept.
func runWarm(f func()) {
	select {
	case warmWork <- f:
	default:
		go warmWorker(f)
	}
}

func warmWorker(f func()) {
	f()
	idle := time.NewTimer(warmIdle)
	defer idle.Stop()
	for {
		select {
		case f = <-warmWork:
			f()
			idle.Reset(warmIdle)
		case <-idle.C:
			return
		}
	}
}
