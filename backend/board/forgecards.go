package board

import (
	"context"
	"sync"
	"time"

	"github.com/osfoundry/desktop/backend/forge"
)

// ForgeCards shows on a branch's card the pull request opened for it from
// the app (forge.Settings keeps them); the board redraws when one opens
// or is read again.
type ForgeCards struct {
	settings *forge.Settings
	mu       sync.Mutex
	watchers []func()
}

var _ PullRequests = (*ForgeCards)(nil)

func (f *ForgeCards) PullRequest(dir, branch string) *PullRequest {
	r := f.settings.Record(dir, branch)
	if r == nil {
		return nil
	}
	return &PullRequest{URL: r.PR.URL, Number: r.PR.Number, Forge: r.Repo.Host.Kind.Label(), State: r.PR.State, Checks: r.PR.Checks.State}
}

func (f *ForgeCards) Watch(changed func()) {
	f.mu.Lock()
	f.watchers = append(f.watchers, changed)
	f.mu.Unlock()
}

func (f *ForgeCards) changed() {
	f.mu.Lock()
	ws := append([]func(){}, f.watchers...)
	f.mu.Unlock()
	for _, w := range ws {
		w()
	}
}

// Follow re-reads the open requests' state and checks every interval
// (newest first, at most maxFollowed a round) until ctx ends, so a card
// shows a request merged or its checks finished on the forge.
func (f *ForgeCards) Follow(ctx context.Context, b *forge.Binding, every time.Duration) {
	const maxFollowed = 20
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		open := f.settings.Open()
		if len(open) > maxFollowed {
			open = open[:maxFollowed]
		}
		for _, r := range open {
			if ctx.Err() != nil {
				return
			}
			_, _ = b.Refresh(r.Dir, r.Branch) // an unreachable forge keeps the last state shown
		}
	}
}

// OpenForge builds the forge wing over the data folder dir: the pull
// request dialog's binding, the Opener Connected approves pull requests
// with, and the board's view of opened requests.
func OpenForge(dir string) (*forge.Binding, *forge.Opener, *ForgeCards, error) {
	settings, err := forge.OpenSettings(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	kc := forge.ChooseKeychain(dir) // a 0600 file in dir where there is no OS keychain
	opener := forge.NewOpener(settings, kc, nil)
	cards := &ForgeCards{settings: settings}
	return forge.NewBinding(context.Background(), opener, settings, kc, cards.changed), opener, cards, nil
}
