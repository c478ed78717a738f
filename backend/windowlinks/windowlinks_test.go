package windowlinks

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/instance"
	"github.com/osfoundry/desktop/backend/panestate"
)

// window records what the router did to the window, in order.
type window struct{ got []string }

func (w *window) Raise() { w.got = append(w.got, "raise") }
func (w *window) Emit(event string, payload any) {
	w.got = append(w.got, fmt.Sprintf("%s %v", event, payload))
}

// links opens osfoundry://<kind>/<id> and refuses anything else as a
// real instance would.
type links struct{}

func (links) Link(kind, id string) string { return "osfoundry://" + kind + "/" + id }
func (links) Open(raw string) (string, string, error) {
	switch {
	case raw == "stale":
		return "", "", instance.ErrStaleLink
	case raw == "broken":
		return "", "", fmt.Errorf("%w", errors.New("bad token"))
	case !strings.HasPrefix(raw, "osfoundry://"):
		return "", "", instance.ErrNotLink
	}
	kind, id, _ := strings.Cut(strings.TrimPrefix(raw, "osfoundry://"), "/")
	return kind, id, nil
}

func newRouter(w *window) *Router {
	r := &Router{opts: Options{Window: w, Links: links{}, HasPane: func(id string) bool { return id == "p1" }}}
	r.opts.Log = &strings.Builder{}
	return r
}

func TestClicked(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		want      []string
	}{
		{"a chat opens the chat", "chat:c1", []string{"raise", EventOpen + " /chat?chat=c1"}},
		{"a run opens Agents", "run:r1", []string{"raise", EventOpen + " /agents"}},
		{"an open pane is focused", "p1", []string{"raise", panestate.EventFocus + " p1"}},
		{"a closed pane only raises", "p2", []string{"raise"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &window{}
			newRouter(w).clicked(tc.key)
			if !reflect.DeepEqual(w.got, tc.want) {
				t.Fatalf("got %q, want %q", w.got, tc.want)
			}
		})
	}
}

func TestLaunched(t *testing.T) {
	stale := linkNotice(instance.ErrStaleLink)
	damaged := linkNotice(errors.New("bad token"))
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no link only raises", []string{"--flag"}, []string{"raise"}},
		{"a pane link focuses the pane", []string{"osfoundry://pane/p1"}, []string{"raise", "raise", panestate.EventFocus + " p1"}},
		{"a chat link opens the chat", []string{"osfoundry://chat/c1"}, []string{"raise", EventOpen + " /chat?chat=c1"}},
		{"a stale link says so", []string{"stale"}, []string{"raise", fmt.Sprintf("%s %v", EventNotice, stale)}},
		{"a damaged link says so", []string{"broken"}, []string{"raise", fmt.Sprintf("%s %v", EventNotice, damaged)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &window{}
			newRouter(w).Launched(instance.Launch{Args: tc.args})
			if !reflect.DeepEqual(w.got, tc.want) {
				t.Fatalf("got %q, want %q", w.got, tc.want)
			}
		})
	}
	if stale.Text == damaged.Text || !strings.Contains(stale.Text, "earlier run") || !strings.Contains(damaged.Text, "damaged") {
		t.Fatalf("the notices do not tell a stale link from a damaged one: %q / %q", stale.Text, damaged.Text)
	}
}
