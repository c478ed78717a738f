package pghub

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A reader's stream says "change" at once and after each announcement of
// its key, never for another key, and ends when the reader goes.
func TestStreamWakesOnlyItsKey(t *testing.T) {
	h := New("osf_test")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.Stream(w, r, r.URL.Query().Get("key"), "change", "x")
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"?key=ws-1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	events := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "event: ") {
				events <- sc.Text()
			}
		}
	}()
	next := func(want bool) {
		t.Helper()
		select {
		case e := <-events:
			if !want {
				t.Fatalf("unexpected %q", e)
			}
		case <-time.After(300 * time.Millisecond):
			if want {
				t.Fatal("no event")
			}
		}
	}
	next(true) // at once
	for subscribed := false; !subscribed; time.Sleep(time.Millisecond) {
		h.mu.Lock()
		subscribed = h.subs["ws-1"] != nil
		h.mu.Unlock()
	}
	h.Announce("ws-2")
	next(false)
	h.Announce("ws-1")
	next(true)
	cancel()
	time.Sleep(50 * time.Millisecond)
	h.mu.Lock()
	left := len(h.subs)
	h.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d keys still subscribed after the reader went", left)
	}
}
