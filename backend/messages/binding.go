package messages

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// EventPosted is emitted after every committed post with a PostedEvent.
const EventPosted = "messages:posted"

// NotifyCooldown: at most one desktop notification per channel in this
// window, so an assistant posting a burst does not flood the desktop.
const NotifyCooldown = 30 * time.Second

// OwnerID and OwnerName author the person's own posts on this machine.
const (
	OwnerID   = "owner"
	OwnerName = "You"
)

// PostedEvent is EventPosted's payload.
type PostedEvent struct {
	Channel ChannelView `json:"channel"`
	Message Message     `json:"message"`
}

// ChannelView is a channel with its workspace's and project's names.
type ChannelView struct {
	Channel
	WorkspaceName string `json:"workspaceName"`
	ProjectName   string `json:"projectName"`
}

// Emitter sends events to the window.
type Emitter interface {
	Emit(event string, payload any)
}

// Notifier shows a desktop notification; key is the channel id.
type Notifier func(title, body, key string)

// Binding is the Messages screen's API. Methods take no context (Wails
// binds them); ctx is the app's lifetime.
type Binding struct {
	ctx    context.Context
	s      *Store
	emit   Emitter
	notify Notifier
	now    func() time.Time

	mu   sync.Mutex
	last map[string]time.Time // channel → last notification
}

// NewBinding serves s to the window, emits every post and notifies the
// person of an assistant's post. now may be nil.
func NewBinding(ctx context.Context, s *Store, emit Emitter, notify Notifier, now func() time.Time) *Binding {
	if now == nil {
		now = time.Now
	}
	b := &Binding{ctx: ctx, s: s, emit: emit, notify: notify, now: now, last: map[string]time.Time{}}
	s.OnPost(b.posted)
	return b
}

func (b *Binding) posted(c Channel, m Message) {
	v, err := b.view(c)
	if err != nil {
		v = ChannelView{Channel: c}
	}
	if b.emit != nil {
		b.emit.Emit(EventPosted, PostedEvent{Channel: v, Message: m})
	}
	if m.AuthorKind != AuthorAssistant || b.notify == nil || !b.due(c.ID) {
		return
	}
	body := m.Text
	if r := []rune(body); len(r) > 140 {
		body = string(r[:140]) + "…"
	}
	b.notify(fmt.Sprintf("%s in #%s", m.AuthorName, c.Name), body, c.ID)
}

// due reports whether channel may notify now, and starts its cooldown.
func (b *Binding) due(channel string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	if t, ok := b.last[channel]; ok && now.Sub(t) < NotifyCooldown {
		return false
	}
	b.last[channel] = now
	return true
}

func (b *Binding) view(c Channel) (ChannelView, error) {
	v := ChannelView{Channel: c}
	var err error
	v.WorkspaceName, v.ProjectName, err = b.s.b.Pool().Places().Names(b.ctx, c.Workspace, c.Project)
	return v, err
}

// Channels lists every workspace's channels; every project has its
// discussion channel first.
func (b *Binding) Channels() ([]ChannelView, error) {
	if err := b.s.EnsureDiscussions(b.ctx); err != nil {
		return nil, err
	}
	wss, err := b.s.channelWorkspaces(b.ctx)
	if err != nil {
		return nil, err
	}
	out := []ChannelView{}
	for _, w := range wss {
		cs, err := b.s.ListChannels(b.ctx, w, "")
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			v, err := b.view(c)
			if err != nil {
				return nil, fmt.Errorf("naming channel %s: %w", c.ID, err)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// Messages returns a channel's newest posts, oldest first.
func (b *Binding) Messages(channelID string) ([]Message, error) {
	if _, err := b.s.Channel(b.ctx, channelID); err != nil {
		return nil, err
	}
	return b.s.ListMessages(b.ctx, channelID, 0, MaxListLimit)
}

// Post writes the person's post.
func (b *Binding) Post(channelID, text, replyTo string) (Message, error) {
	m, _, err := b.s.PostMessage(b.ctx, Post{Channel: channelID, AuthorKind: AuthorPerson, Author: OwnerID,
		AuthorName: OwnerName, Text: text, ReplyTo: replyTo})
	return m, err
}

// CreateChannel creates a channel in workspace (and project, or "");
// a private channel is owned by the person at this machine.
func (b *Binding) CreateChannel(workspace, project, name string, private bool) (Channel, error) {
	n := NewChannel{Workspace: workspace, Project: project, Name: name, Private: private}
	if private {
		n.Owner = OwnerID
	}
	return b.s.CreateChannel(b.ctx, n)
}

// Place is a workspace or project a channel can be created in.
type Place struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Workspace string `json:"workspace"` // a project's workspace; "" for a workspace
}

// Places lists the workspaces and their projects, by name, for the New
// channel form.
func (b *Binding) Places() ([]Place, error) {
	ps, err := b.s.b.Pool().Places().Places(b.ctx)
	if err != nil {
		return nil, fmt.Errorf("listing workspaces and projects: %w", err)
	}
	return ps, nil
}
