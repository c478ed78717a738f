package wailsui

import (
	"sync"
	"testing"
)

func TestShownRunsOnceWhoeverCallsFirst(t *testing.T) {
	var mu sync.Mutex
	runs := 0
	s := NewShown(func() { mu.Lock(); runs++; mu.Unlock() })
	var wg sync.WaitGroup
	for range 8 { // the page and the timer at once
		wg.Add(1)
		go func() { defer wg.Done(); s.FirstFrame() }()
	}
	wg.Wait()
	s.FirstFrame()
	if runs != 1 {
		t.Fatalf("ran %d times, want once", runs)
	}
}
