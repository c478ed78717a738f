package detect

import (
	"errors"
	"sync"
	"testing"
	"time"
)

func TestMonitor(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	var mu sync.Mutex
	var notes []Notification
	var updates []string
	m := NewMonitor(MonitorConfig{
		Registry: bundled(t), Clock: clock,
		Notify: func(n Notification) { mu.Lock(); notes = append(notes, n); mu.Unlock() },
		OnUpdate: func(u Update, label string) {
			mu.Lock()
			updates = append(updates, label+":"+string(u.Decision.State))
			mu.Unlock()
		},
	})
	m.Start()
	defer m.Stop()
	api, web := &pane{}, &pane{}
	api.set(claudeWorking...)
	web.set("• Working (3s • esc to interrupt)")
	fg := Process{Name: "claude"}
	trAPI, err := m.Add("p1", "shop-api", "", api.screen, func() Process { return fg })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Add("p1", "again", "", api.screen, nil); !errors.Is(err, ErrPaneExists) {
		t.Fatalf("duplicate add: %v", err)
	}
	trWeb, _ := m.Add("p2", "shop-web", "", web.screen, nil)

	// Codex announces itself through OSC 7501; Claude is found by the sweep's process poll.
	m.HandleOSC("p2", 7501, "state=working:app=codex")
	m.HandleOSC("p2", 7501, "state=bogus")
	m.HandleOSC("nope", 7501, "state=blocked:app=codex")
	clock.Advance(DefaultSweep)
	if d := trAPI.Current(); d.State != Working || d.Agent != "claude" {
		t.Fatalf("shop-api: %s", d)
	}
	if d := trWeb.Current(); d.State != Working || d.Agent != "codex" {
		t.Fatalf("shop-web: %s", d)
	}
	// A prompt appears; answering, then flickering back within 30 s, rings once.
	for i := 0; i < 2; i++ {
		api.set(claudePrompt...)
		trAPI.ScreenChanged()
		clock.Advance(time.Second)
		api.set(claudeWorking...)
		trAPI.ScreenChanged()
		clock.Advance(time.Second)
	}
	mu.Lock()
	if len(notes) != 1 || notes[0].Title != "Needs you · shop-api" || notes[0].Session != "p1" {
		t.Fatalf("notifications = %+v", notes)
	}
	mu.Unlock()
	// The agent exits: the sweep sees the shell again.
	fg = Process{Shell: true, Name: "bash"}
	clock.Advance(DefaultSweep)
	if d := trAPI.Current(); !d.Ended || d.State != Idle {
		t.Fatalf("after exit: %s", d)
	}
	m.Remove("p1")
	if m.Tracker("p1") != nil {
		t.Fatal("removed pane still tracked")
	}
	reads := api.reads
	clock.Advance(10 * time.Second)
	if api.reads != reads {
		t.Fatal("removed pane still swept")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"shop-web:working", "shop-api:working", "shop-api:blocked", "shop-api:working", "shop-api:blocked", "shop-api:working", "shop-api:idle"}
	if len(updates) != len(want) {
		t.Fatalf("updates = %v, want %v", updates, want)
	}
	for i := range want {
		if updates[i] != want[i] {
			t.Fatalf("updates = %v, want %v", updates, want)
		}
	}
}

func TestProcessGone(t *testing.T) {
	tr, p, clock := newTestTracker(t, "")
	p.set(claudePrompt...)
	tr.SetProcess(Process{Name: "claude"})
	clock.Advance(DefaultDelay)
	if tr.Current().State != Blocked {
		t.Fatal("precondition")
	}
	tr.SetProcess(Process{Gone: true})
	clock.Advance(DefaultDelay)
	if d := tr.Current(); d.State != Idle || !d.Ended {
		t.Fatalf("pane program exited with a prompt on screen: %s", d)
	}
}
