package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/connect"
)

// A post made through one replica is read through the other, and a post
// retried with its idempotency key (on the other replica) is posted once.
func messageChannels(t *testing.T, c *cluster) {
	a := c.connectAs(t, c.bob, "bob", "Poster", "osfoundry:read osfoundry:write")
	text, isErr := a.result("r1", "list_project_resources", map[string]any{"project_id": "proj-a", "resource_type": "message_channel"})
	var list struct {
		Resources []connect.Resource `json:"resources"`
	}
	if json.Unmarshal([]byte(text), &list); isErr || len(list.Resources) != 1 {
		t.Fatalf("project A's message channels: %s", text)
	}
	channel := list.Resources[0].ID
	post := map[string]any{"channel_id": channel, "text": "shipping on Friday", "idempotency_key": "post-friday-1"}
	for _, to := range []string{"r1", "r2"} {
		if text, isErr := a.result(to, "post_channel_message", post); isErr {
			t.Fatalf("posting on %s: %s", to, text)
		}
	}
	text, isErr = a.result("r2", "list_channel_messages", map[string]any{"channel_id": channel})
	if isErr || strings.Count(text, "shipping on Friday") != 1 {
		t.Fatalf("the channel read on r2 (want the post once): %s", text)
	}
}
