package messages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/tools"
)

// Tool names.
const (
	ToolListChannelMessages = "list_channel_messages"
	ToolPostChannelMessage  = "post_channel_message"
)

// KindChannel is the Target kind of a Message channel.
const KindChannel = "message_channel"

// Target is the channel a tool call touches, read now. Project is set only
// for a project's discussion channel: being in a project opens that one
// channel and no other, so every other channel needs an explicit invite.
// InviteFrom is set for a private channel: only its owner's invite counts.
type Target struct {
	Kind       string
	ID         string
	Workspace  string // "" when no such channel exists
	Project    string
	InviteFrom string
}

var listSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["channel_id"],"properties":{
"channel_id":{"type":"string","description":"The Message channel's ID from list_granted_resources (a project's discussion channel) or from the owner's invite."},
"since":{"type":"integer","minimum":0,"description":"Only messages with a seq greater than this (the seq of the last message you read)."},
"limit":{"type":"integer","minimum":1,"maximum":200,"description":"At most this many messages, the newest ones (default 50, max 200)."}}}`)

var postSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["channel_id","text","idempotency_key"],"properties":{
"channel_id":{"type":"string","description":"The Message channel's ID."},
"text":{"type":"string","maxLength":4000,"description":"The message, Markdown, at most 4000 characters."},
"reply_to":{"type":"string","maxLength":100,"description":"The ID of the message you answer (optional)."},
"idempotency_key":{"type":"string","minLength":1,"maxLength":200,"description":"A new unique key for every new post; a retry with the same key returns the first post instead of posting twice."}}}`)

// Tools returns list_channel_messages and post_channel_message.
func (s *Store) Tools() []tools.Tool {
	return []tools.Tool{
		{Meta: tools.Meta{Name: ToolListChannelMessages, ReadOnly: true, Scope: tools.ScopeRead, Unattended: true, InputSchema: listSchema,
			Description: "Read a Message channel's messages (id, seq, author, text, time), oldest first. Pass since = the last seq you read to get only newer ones."},
			Handler: s.listTool},
		{Meta: tools.Meta{Name: ToolPostChannelMessage, Scope: tools.ScopeWrite, Unattended: true, InputSchema: postSchema,
			Description: "Post a message to a Message channel, shown to the people there with your connection's name. " +
				"A repeated idempotency_key returns the first post. At most " + fmt.Sprint(s.opts.PostsPerMinute) + " posts a minute per connection."},
			Handler: s.postTool},
	}
}

type listArgs struct {
	Channel string `json:"channel_id"`
	Since   int64  `json:"since"`
	Limit   int    `json:"limit"`
}

type postArgs struct {
	Channel string `json:"channel_id"`
	Text    string `json:"text"`
	ReplyTo string `json:"reply_to"`
	Key     string `json:"idempotency_key"`
}

func decode(raw json.RawMessage, v any) *tools.Result {
	if len(raw) == 0 {
		raw = json.RawMessage(`{}`)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		r := tools.ErrorResult("arguments do not match the tool's schema: " + err.Error())
		return &r
	}
	return nil
}

// channelIn returns the channel if it is in the call's workspace.
func (s *Store) channelIn(ctx context.Context, ws, id string) (Channel, *tools.Result, error) {
	if ws == "" {
		r := tools.ErrorResult("no workspace is bound to this call; connect the assistant to a workspace first")
		return Channel{}, &r, nil
	}
	if strings.TrimSpace(id) == "" {
		r := tools.ErrorResult("channel_id is required (a string)")
		return Channel{}, &r, nil
	}
	c, err := s.Channel(ctx, id)
	if errors.Is(err, ErrNotFound) || err == nil && c.Workspace != ws {
		r := tools.ErrorResult(fmt.Sprintf("channel %s not found; use list_granted_resources to find Message channel IDs", id))
		return Channel{}, &r, nil
	}
	return c, nil, err
}

func (s *Store) listTool(ctx context.Context, c tools.Call) (tools.Result, error) {
	var a listArgs
	if r := decode(c.Args, &a); r != nil {
		return *r, nil
	}
	if a.Limit < 0 || a.Limit > MaxListLimit || a.Since < 0 {
		return tools.ErrorResult(fmt.Sprintf("limit must be 1–%d and since 0 or more", MaxListLimit)), nil
	}
	ch, refusal, err := s.channelIn(ctx, c.Workspace, a.Channel)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	ms, err := s.ListMessages(ctx, ch.ID, a.Since, a.Limit)
	if err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{"channel_id": ch.ID, "channel_name": ch.Name, "messages": ms}), nil
}

func (s *Store) postTool(ctx context.Context, c tools.Call) (tools.Result, error) {
	var a postArgs
	if r := decode(c.Args, &a); r != nil {
		return *r, nil
	}
	if strings.TrimSpace(a.Key) == "" || len(a.Key) > 200 {
		return tools.ErrorResult("idempotency_key is required: a new unique string (at most 200 characters) for every new post"), nil
	}
	if len(a.ReplyTo) > maxReplyTo {
		return tools.ErrorResult(fmt.Sprintf("reply_to is a message id (at most %d characters); use list_channel_messages to find it", maxReplyTo)), nil
	}
	ch, refusal, err := s.channelIn(ctx, c.Workspace, a.Channel)
	if refusal != nil || err != nil {
		return deref(refusal), err
	}
	author := c.Source
	if author == "" {
		author = "assistant"
	}
	ok, wait, err := s.rate.TakePost(ctx, author, s.opts.Now(), s.opts.PostsPerMinute)
	if err != nil {
		return tools.Result{}, fmt.Errorf("counting the posts of %s: %w", author, err)
	}
	if !ok {
		return tools.ErrorResult(rateRefusal(s.opts.PostsPerMinute, wait)), nil
	}
	name := author
	if n := runName(author); n != "" {
		name = n
	}
	s.mu.Lock()
	nameOf := s.opts.NameOf
	s.mu.Unlock()
	if nameOf != nil {
		if n := nameOf(ctx, author); n != "" {
			name = n
		}
	}
	m, replayed, err := s.PostMessage(ctx, Post{Channel: ch.ID, AuthorKind: AuthorAssistant, Author: author, AuthorName: name,
		Text: a.Text, ReplyTo: a.ReplyTo, Key: a.Key})
	switch {
	case errors.Is(err, ErrKeyReused):
		return tools.ErrorResult(fmt.Sprintf("idempotency_key %q was already used for a different post, so nothing was posted. "+
			"Use a new unique idempotency_key for every new post.", a.Key)), nil
	case errors.Is(err, ErrInvalid):
		return tools.ErrorResult(strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")), nil
	case err != nil:
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{"status": "posted", "channel_id": ch.ID, "message": m, "replayed": replayed}), nil
}

func deref(r *tools.Result) tools.Result {
	if r == nil {
		return tools.Result{}
	}
	return *r
}

// CallTarget tells which channel a call of tool with args touches. An
// unknown channel is a Target with no Workspace; unreadable arguments are
// ErrInvalid.
func (s *Store) CallTarget(ctx context.Context, tool string, args json.RawMessage) (Target, error) {
	if tool != ToolListChannelMessages && tool != ToolPostChannelMessage {
		return Target{}, fmt.Errorf("finding the target of %s: not a message tool", tool)
	}
	var a struct {
		Channel json.RawMessage `json:"channel_id"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return Target{}, fmt.Errorf("%w: arguments must be a JSON object", ErrInvalid)
	}
	t := Target{Kind: KindChannel}
	if json.Unmarshal(a.Channel, &t.ID) != nil || t.ID == "" {
		return t, fmt.Errorf("%w: missing channel_id (a string)", ErrInvalid)
	}
	c, err := s.Channel(ctx, t.ID)
	if errors.Is(err, ErrNotFound) {
		return t, nil
	}
	if err != nil {
		return t, err
	}
	t.Workspace = c.Workspace
	if c.Discussion {
		t.Project = c.Project
	}
	if c.Private {
		t.InviteFrom = c.Owner
	}
	return t, nil
}
