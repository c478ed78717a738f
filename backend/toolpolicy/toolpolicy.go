// Package toolpolicy is Settings → Tool policy: per channel of the one tool
// executor, which of the app's tools are turned off and which ask the
// person first. The choices are saved in the settings file and given to the
// executor (tools.Executor.SetChannelPolicy) at start and on every change;
// the executor refuses and audits (tools.DecisionChannel). It never runs a
// tool itself.
package toolpolicy

import (
	"fmt"
	"slices"
	"sort"

	"github.com/osfoundry/desktop/backend/settings"
	"github.com/osfoundry/desktop/backend/tools"
)

// Channel is one executor channel the person can narrow.
type Channel struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	About  string `json:"about"`
	Policy Policy `json:"policy"`
}

// Policy is one channel's overrides ("*" means every tool).
type Policy struct {
	Disabled      []string `json:"disabled"`
	ForceApproval []string `json:"forceApproval"`
}

// Tool is one of the app's tools as the section lists it.
type Tool struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	ReadOnly      bool   `json:"readOnly"`
	NeedsApproval bool   `json:"needsApproval"`
}

// View is what the section shows.
type View struct {
	Channels []Channel `json:"channels"`
	Tools    []Tool    `json:"tools"`
}

// Channels are the executor channels of this app's tool calls: every run
// the window, an agent, a fleet or a connected assistant starts goes
// through the bridge on "pipeline" (workers.Channel); osfoundry run and
// osfoundry bridge in a terminal on "headless" (backend/cli).
var Channels = []Channel{
	{ID: "pipeline", Name: "Chats and agent runs",
		About: "Every chat, agent run, fleet and loop, and the runs connected assistants start: the osFoundry tools they call through the bridge."},
	{ID: "headless", Name: "Command line",
		About: "osfoundry run and osfoundry bridge in a terminal: read when the command starts."},
}

// Executor is the one tool executor (tools.Executor).
type Executor interface {
	Tools() []tools.Meta
	SetChannelPolicy(channel string, p tools.ChannelPolicy)
}

var _ Executor = (*tools.Executor)(nil)

// Binding is the section's Go API.
type Binding struct {
	store *settings.Store
	exec  Executor
}

// NewBinding gives exec the saved overrides now and after every change.
func NewBinding(store *settings.Store, exec Executor) *Binding {
	store.Follow(func(p settings.Prefs) {
		for _, c := range Channels {
			o := p.Channels[c.ID]
			exec.SetChannelPolicy(c.ID, tools.ChannelPolicy{Disabled: o.Disabled, ForceApproval: o.ForceApproval})
		}
	})
	return &Binding{store: store, exec: exec}
}

// Get returns the channels with their saved overrides and the app's tools.
func (b *Binding) Get() View {
	p := b.store.Get()
	v := View{Channels: make([]Channel, 0, len(Channels)), Tools: []Tool{}}
	for _, c := range Channels {
		o := p.Channels[c.ID]
		c.Policy = Policy{Disabled: orEmpty(o.Disabled), ForceApproval: orEmpty(o.ForceApproval)}
		v.Channels = append(v.Channels, c)
	}
	for _, m := range b.exec.Tools() {
		v.Tools = append(v.Tools, Tool{Name: m.Name, Description: m.Description, ReadOnly: m.ReadOnly, NeedsApproval: m.NeedsApproval})
	}
	sort.Slice(v.Tools, func(i, j int) bool { return v.Tools[i].Name < v.Tools[j].Name })
	return v
}

// Set replaces one channel's overrides (an empty Policy removes them) and
// saves them; the executor applies them to the next call. Unknown names
// change nothing.
func (b *Binding) Set(channel string, p Policy) (View, error) {
	if !slices.ContainsFunc(Channels, func(c Channel) bool { return c.ID == channel }) {
		return b.Get(), fmt.Errorf("unknown channel %q: the channels are %s", channel, channelIDs())
	}
	known := map[string]bool{"*": true}
	for _, m := range b.exec.Tools() {
		known[m.Name] = true
	}
	for _, list := range [][]string{p.Disabled, p.ForceApproval} {
		for _, n := range list {
			if !known[n] {
				return b.Get(), fmt.Errorf("unknown tool %q: pick one of the app's tools listed in Settings → Tool policy", n)
			}
		}
	}
	for _, n := range p.Disabled {
		if slices.Contains(p.ForceApproval, n) {
			return b.Get(), fmt.Errorf("%s is both turned off and asked first: choose one", n)
		}
	}
	if _, err := b.store.SetChannel(channel, settings.ChannelOverride{Disabled: clean(p.Disabled), ForceApproval: clean(p.ForceApproval)}); err != nil {
		return b.Get(), fmt.Errorf("saving the tool policy of %s: %w", channel, err)
	}
	return b.Get(), nil
}

func channelIDs() string {
	var s string
	for i, c := range Channels {
		if i > 0 {
			s += ", "
		}
		s += c.ID
	}
	return s
}

func clean(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
