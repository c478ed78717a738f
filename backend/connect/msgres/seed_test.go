package msgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/connect/connecttest"
	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/notes"
)

// caller runs one tool call as an assistant: the result's text and
// whether it was a tool error.
type caller func(tool string, args map[string]any) (string, bool)

// seedExamples runs the reference article's central examples as a connected assistant
// would, against what the owner made in project Launch (proj-a): "what
// does our knowledge base say about refunds?", "mark the pricing page
// record Ready", and a reply in the project's discussion channel. A
// channel it was not invited to and a private channel are refused, and
// removing the project from the connection closes everything on the very
// next call. display is the connection's name, which its post must carry.
func seedExamples(t *testing.T, w *world, conn connect.Connection, display string, call caller) {
	t.Helper()
	_, err := w.notes.CreateKnowledgeBase(bg, "ws-acme", "proj-a", "", "Support")
	must(t, err)
	kbs, err := w.notes.ListKnowledgeBases(bg, "ws-acme")
	must(t, err)
	kb := kbs[0].ID
	refunds, err := w.notes.PutArticle(bg, kb, "", "Refunds", "Refunds take 5 business days after we receive the item.")
	must(t, err)
	_, err = w.notes.PutArticle(bg, kb, "", "Shipping", "We ship worldwide within 2 days.")
	must(t, err)
	board, err := w.notes.CreateRecordBoard(bg, "ws-acme", "proj-a", "Website", []string{"Draft", "Review", "Ready"})
	must(t, err)
	pricing, err := w.notes.AddRecord(bg, board.ID, "Pricing page", "Review", "New tiers")
	must(t, err)
	question, _, err := w.msgs.PostMessage(bg, messages.Post{Channel: w.discA.ID, AuthorKind: messages.AuthorPerson,
		Author: messages.OwnerID, AuthorName: messages.OwnerName, Text: "What does our knowledge base say about refunds?"})
	must(t, err)
	general, err := w.msgs.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "general"})
	must(t, err)
	secret, err := w.msgs.CreateChannel(bg, messages.NewChannel{Workspace: "ws-acme", Project: "proj-a", Name: "secret", Private: true, Owner: "alice"})
	must(t, err)
	must(t, w.svc.InviteChannel(bg, conn.ID, secret.ID, connect.OwnerID)) // not its owner's invite

	ok := func(step, tool string, args map[string]any, v any) string {
		t.Helper()
		text, isErr := call(tool, args)
		if isErr {
			t.Fatalf("%s: %s refused: %s", step, tool, text)
		}
		if v != nil {
			if err := json.Unmarshal([]byte(text), v); err != nil {
				t.Fatalf("%s: %s answered %s: %v", step, tool, text, err)
			}
		}
		return text
	}
	refused := func(step, tool string, args map[string]any, want string) {
		t.Helper()
		text, isErr := call(tool, args)
		if !isErr || !strings.Contains(text, want) {
			t.Fatalf("%s: %s gave error=%v %s; want a tool error saying %q", step, tool, isErr, text, want)
		}
	}

	must(t, w.svc.AddProject(bg, conn.ID, "proj-a"))
	// "What does our knowledge base say about refunds?"
	var res struct {
		Resources []connect.Resource `json:"resources"`
	}
	ok("find the knowledge base", "list_project_resources", map[string]any{"resource_type": "knowledge_base"}, &res)
	if len(res.Resources) != 1 || res.Resources[0].ID != kb {
		t.Fatalf("knowledge bases listed: %+v; want %s", res.Resources, kb)
	}
	var hits struct {
		Articles []notes.KBHit `json:"articles"`
	}
	ok("search", "search_knowledge_base", map[string]any{"knowledge_base_id": kb, "query": "refunds"}, &hits)
	if len(hits.Articles) != 1 || hits.Articles[0].ArticleID != refunds.ID {
		t.Fatalf("search for refunds found %+v; want the Refunds article %s", hits.Articles, refunds.ID)
	}
	if text := ok("read the article", "read_knowledge_article", map[string]any{"knowledge_base_id": kb, "article_id": hits.Articles[0].ArticleID}, nil); !strings.Contains(text, "5 business days") {
		t.Fatalf("article read: %s", text)
	}

	// "Mark the pricing page record Ready", with the version it read.
	ok("find the Record channel", "list_project_resources", map[string]any{"resource_type": "record_channel", "search": "web"}, &res)
	if len(res.Resources) != 1 || res.Resources[0].ID != board.ID {
		t.Fatalf("Record channels listed: %+v; want %s", res.Resources, board.ID)
	}
	var items struct {
		Items []notes.RecordItem `json:"items"`
	}
	ok("list records", "list_record_items", map[string]any{"record_channel_id": board.ID}, &items)
	if len(items.Items) != 1 || items.Items[0].ID != pricing.ID {
		t.Fatalf("records listed: %+v", items.Items)
	}
	read := items.Items[0].Version
	edit := func(status, key string, version int64) map[string]any {
		return map[string]any{"record_channel_id": board.ID, "item_id": pricing.ID, "expected_version": version,
			"idempotency_key": key, "values": map[string]any{"status": status}}
	}
	refused("a status outside the channel's list", "edit_record_item", edit("Shipped", "key-shipped-1", read), "Draft, Review, Ready")
	ok("move to Ready", "edit_record_item", edit("Ready", "key-ready-1", read), nil)
	got, err := w.notes.GetRecord(bg, board.ID, pricing.ID)
	must(t, err)
	if got.Status != "Ready" || got.Version == read {
		t.Fatalf("pricing record after the edit: %+v", got)
	}
	refused("a second edit from the stale version", "edit_record_item", edit("Draft", "key-stale-1", read), "version_conflict")

	// Read the discussion channel and reply.
	var msgs struct {
		Messages []messages.Message `json:"messages"`
	}
	ok("read the discussion", "list_channel_messages", map[string]any{"channel_id": w.discA.ID}, &msgs)
	if len(msgs.Messages) != 1 || msgs.Messages[0].ID != question.ID {
		t.Fatalf("discussion read: %+v; want the person's question", msgs.Messages)
	}
	ok("reply", "post_channel_message", map[string]any{"channel_id": w.discA.ID, "reply_to": question.ID,
		"text": fmt.Sprintf("Refunds take 5 business days (from %q).", hits.Articles[0].Title), "idempotency_key": "reply-1"}, nil)
	posts, err := w.msgs.ListMessages(bg, w.discA.ID, 0, 0)
	must(t, err)
	if len(posts) != 2 || posts[1].ReplyTo != question.ID || posts[1].AuthorKind != messages.AuthorAssistant || posts[1].AuthorName != display {
		b, _ := json.Marshal(posts)
		t.Fatalf("discussion holds %s; want the reply to the question by %s", b, display)
	}

	// Channels it may not open.
	refused("a channel it was not invited to", "list_channel_messages", map[string]any{"channel_id": general.ID}, "not_invited")
	refused("a private channel with another person's invite", "post_channel_message",
		map[string]any{"channel_id": secret.ID, "text": "hi", "idempotency_key": "k-secret"}, "not_invited")

	// The owner removes the project: the next call is refused.
	must(t, w.svc.RemoveProject(bg, conn.ID, "proj-a"))
	refused("search after the project was removed", "search_knowledge_base", map[string]any{"knowledge_base_id": kb, "query": "refunds"}, "not_in_project")
	refused("edit after the project was removed", "edit_record_item", edit("Draft", "key-after-1", got.Version), "not_in_project")
	refused("discussion after the project was removed", "list_channel_messages", map[string]any{"channel_id": w.discA.ID}, "not_invited")
	ok("nothing listed after the project was removed", "list_project_resources", map[string]any{}, &res)
	if len(res.Resources) != 0 {
		t.Fatalf("still listed: %+v", res.Resources)
	}
}

// TestSeedExamplesGoSDK runs the reference article's examples with the Go SDK client
// after a real OAuth flow.
func TestSeedExamplesGoSDK(t *testing.T) {
	w := newWorld(t)
	conn, err := w.svc.CreateConnection(bg, "Claude", "Claude chat")
	must(t, err)
	seedExamples(t, w, conn, "Claude chat", w.goClient(t, "Claude chat"))
}

// TestSeedExamplesTypeScriptSDK runs the reference article's examples with the official
// TypeScript client (@modelcontextprotocol/sdk from npm) after its own
// OAuth flow: discovery, registration, PKCE and token are the SDK's.
func TestSeedExamplesTypeScriptSDK(t *testing.T) {
	node, sdk, err := connecttest.FindTSSDK(filepath.Join("..", "..", ".."))
	if errors.Is(err, connecttest.ErrNoTSSDK) {
		t.Skip(err)
	}
	must(t, err)
	w := newWorld(t)
	conn, err := w.svc.CreateConnection(bg, "ChatGPT", "ChatGPT dev mode")
	must(t, err)
	b := connecttest.NewBrowser(w.srv.BaseURL())
	link, _ := w.srv.SignInURL(bg, connect.OwnerID, 0)
	must(t, b.SignIn(link))
	ctx, cancel := context.WithTimeout(bg, 2*time.Minute)
	defer cancel()
	c, err := connecttest.StartTSClient(ctx, node, sdk, filepath.Join("..", "testdata", "tsclient.mjs"), w.srv.ResourceURL(),
		b, "ws-acme", "Use pending: ChatGPT dev mode")
	must(t, err)
	c.Logf = t.Logf
	defer func() {
		if stderr := c.Close(); t.Failed() {
			t.Logf("node stderr:\n%s", stderr)
		}
	}()
	// Ask for read and write from the first authorization on.
	if r, err := c.Send("RESET osfoundry:read osfoundry:write"); err != nil || r != "OK reset" {
		t.Fatalf("reset: %s %v", r, err)
	}
	seedExamples(t, w, conn, "ChatGPT dev mode", func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		text, isErr, err := c.Raw(tool, args)
		must(t, err)
		return text, isErr
	})
	if len(c.Auths) != 1 {
		t.Fatalf("%d authorization rounds; want 1", len(c.Auths))
	}
}
