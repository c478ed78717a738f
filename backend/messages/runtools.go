package messages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/osfoundry/desktop/backend/tools"
)

// A run's bridge (a Worker started for a project) gets the same two tools,
// bound to that project's discussion channel: the project comes with the
// run (tools.Call.Project), never from the arguments, so channel_id may be
// left out and any other channel is refused.

var runListSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"properties":{
"channel_id":{"type":"string","description":"Omit: a run reads its project's discussion channel (the only channel open to it)."},
"since":{"type":"integer","minimum":0,"description":"Only messages with a seq greater than this (the seq of the last message you read)."},
"limit":{"type":"integer","minimum":1,"maximum":200,"description":"At most this many messages, the newest ones (default 50, max 200)."}}}`)

var runPostSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["text","idempotency_key"],"properties":{
"channel_id":{"type":"string","description":"Omit: a run posts in its project's discussion channel (the only channel open to it)."},
"text":{"type":"string","maxLength":4000,"description":"The message, Markdown, at most 4000 characters."},
"reply_to":{"type":"string","maxLength":100,"description":"The ID of the message you answer (optional)."},
"idempotency_key":{"type":"string","minLength":1,"maxLength":200,"description":"A new unique key for every new post; a retry with the same key returns the first post instead of posting twice."}}}`)

// RunTools are list_channel_messages and post_channel_message for a run's
// bridge: they reach only the discussion channel of the run's project.
func (s *Store) RunTools() []tools.Tool {
	return []tools.Tool{
		{Meta: tools.Meta{Name: ToolListChannelMessages, ReadOnly: true, Scope: tools.ScopeRead, Unattended: true, InputSchema: runListSchema,
			Description: "Read the discussion channel of the project this run is for (id, seq, author, text, time), oldest first. Pass since = the last seq you read to get only newer ones."},
			Handler: s.runHandler([]string{"channel_id", "since", "limit"}, s.listTool)},
		{Meta: tools.Meta{Name: ToolPostChannelMessage, Scope: tools.ScopeWrite, Unattended: true, InputSchema: runPostSchema,
			Description: "Post a message to the discussion channel of the project this run is for; the people there see it came from this run. " +
				"A repeated idempotency_key returns the first post."},
			Handler: s.runHandler([]string{"channel_id", "text", "reply_to", "idempotency_key"}, s.postTool)},
	}
}

// runHandler checks the arguments' names, resolves the run's discussion
// channel and runs next with channel_id set to it.
func (s *Store) runHandler(names []string, next tools.Handler) tools.Handler {
	return func(ctx context.Context, c tools.Call) (tools.Result, error) {
		args := map[string]json.RawMessage{}
		if len(c.Args) > 0 {
			if err := json.Unmarshal(c.Args, &args); err != nil {
				return tools.ErrorResult("arguments must be a JSON object"), nil
			}
		}
		var unknown []string
		for k := range args {
			if !slices.Contains(names, k) {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return tools.ErrorResult(fmt.Sprintf("unknown argument %q; %s accepts: %s", unknown[0], c.Tool, strings.Join(names, ", "))), nil
		}
		if c.Project == "" {
			return tools.ErrorResult("this run was not started for a project, so no Message channel is open to it; " +
				"a run started for a project reads and posts in that project's discussion channel"), nil
		}
		disc, err := s.ProjectDiscussion(ctx, c.Project)
		if errors.Is(err, ErrNotFound) || err == nil && disc.Workspace != c.Workspace {
			return tools.ErrorResult(fmt.Sprintf("project %s not found in this run's workspace", c.Project)), nil
		}
		if err != nil {
			return tools.Result{}, err
		}
		if raw, ok := args["channel_id"]; ok {
			var id string
			if json.Unmarshal(raw, &id) != nil {
				return tools.ErrorResult("channel_id must be a string"), nil
			}
			if id != "" && id != disc.ID {
				return tools.ErrorResult(fmt.Sprintf("a run reads and posts only in the discussion channel of its project (%s); "+
					"leave channel_id out to use it", disc.ID)), nil
			}
		}
		args["channel_id"], _ = json.Marshal(disc.ID)
		c.Args, err = json.Marshal(args)
		if err != nil {
			return tools.Result{}, fmt.Errorf("encoding the arguments: %w", err)
		}
		return next(ctx, c)
	}
}

// runName names a run's posts: "Run <id>" for the source "bridge:<id>".
func runName(source string) string {
	if id, ok := strings.CutPrefix(source, "bridge:"); ok && id != "" {
		return "Run " + id
	}
	return ""
}
