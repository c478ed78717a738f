package quitask

import (
	"context"
	"reflect"
	"testing"

	"github.com/osfoundry/desktop/backend/panestate"
)

type fakeWindow struct {
	asked  [][]panestate.BusyPane
	raised int
	quits  int
	guard  *Guard
	closed bool
}

func (f *fakeWindow) Emit(event string, payload any) {
	if event == EventAsk {
		f.asked = append(f.asked, payload.([]panestate.BusyPane))
	}
}
func (f *fakeWindow) Raise() { f.raised++ }

// close is what Wails does on a close request: quit unless BeforeClose
// prevents it.
func (f *fakeWindow) close() {
	f.quits++
	if !f.guard.BeforeClose(context.Background()) {
		f.closed = true
	}
}

func TestCloseRequestWithBusyPanesAsksFirst(t *testing.T) {
	busy := []panestate.BusyPane{{ID: "p1", Folder: "shop-api", What: "Claude Code", State: "working"}}
	w := &fakeWindow{}
	w.guard = New(func() []panestate.BusyPane { return busy }, w, w.close)

	w.close() // the ✕, Ctrl+Q, the dock's Quit
	if w.closed {
		t.Fatal("the window quit with a working pane, without asking")
	}
	if len(w.asked) != 1 || !reflect.DeepEqual(w.asked[0], busy) || w.raised != 1 {
		t.Fatalf("asked %v (raised %d times), want the busy pane named once", w.asked, w.raised)
	}

	// Cancel sends nothing: a second request asks again.
	w.guard.Quit()
	if w.closed || len(w.asked) != 2 {
		t.Fatalf("after Cancel a new request: closed %v, asked %d times", w.closed, len(w.asked))
	}

	w.guard.QuitAnyway()
	if !w.closed || len(w.asked) != 2 {
		t.Fatalf("Quit anyway: closed %v, asked %d times; want closed without asking again", w.closed, len(w.asked))
	}
}

func TestCloseRequestWithNothingAtWorkQuits(t *testing.T) {
	w := &fakeWindow{}
	w.guard = New(func() []panestate.BusyPane { return nil }, w, w.close)
	w.close()
	if !w.closed || len(w.asked) != 0 {
		t.Fatalf("closed %v, asked %d times; want quit at once", w.closed, len(w.asked))
	}
}
