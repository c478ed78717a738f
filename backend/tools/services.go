package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// WebHit is one web_search result.
type WebHit struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// WebSearcher backs web_search. Without one configured the tool is not
// registered at all (a model is never offered a tool that can only fail).
type WebSearcher interface {
	WebSearch(ctx context.Context, query string, limit int) ([]WebHit, error)
}

// Transcriber backs transcribe: audio file (inside the run's folder) → text.
type Transcriber interface {
	Transcribe(ctx context.Context, path string) (string, error)
}

// queryArgs are a search tool's arguments: what to look for, and how many
// hits at most (each tool has its own default and cap).
type queryArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// decodeQuery reads a search tool's arguments; a message for the model comes
// back instead when they do not decode or the query is blank (empty says
// what to pass).
func decodeQuery(raw json.RawMessage, empty string) (queryArgs, string) {
	var a queryArgs
	if msg := decodeArgs(raw, &a); msg != "" {
		return a, msg
	}
	if strings.TrimSpace(a.Query) == "" {
		return a, empty
	}
	return a, ""
}

// MemorySearchTool is memory_search: full-text search over the workspace's
// notes and knowledge folder.
func MemorySearchTool(m MemorySearcher) Tool {
	return Tool{
		Meta: Meta{
			Name:        "memory_search",
			Description: "Full-text search over the user's notes and knowledge base. Returns matching notes and articles with a snippet.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"query":{"type":"string","description":"words to search for"},` +
				`"limit":{"type":"integer","minimum":1,"maximum":50,"description":"most hits to return; default 10"}},` +
				`"required":["query"]}`),
			ReadOnly: true, Scope: ScopeRead, Unattended: true,
		},
		Handler: func(ctx context.Context, c Call) (Result, error) {
			a, msg := decodeQuery(c.Args, "query is empty; pass the words to search for")
			if msg != "" {
				return ErrorResult(msg), nil
			}
			a.Query = strings.TrimSpace(a.Query)
			if a.Limit <= 0 {
				a.Limit = 10
			}
			a.Limit = min(a.Limit, 50)
			// The workspace comes from the call, bound by whoever accepted the
			// connection; an argument naming another workspace is ignored.
			hits, err := m.MemorySearch(ctx, c.Workspace, a.Query, a.Limit)
			if err != nil {
				return Result{}, fmt.Errorf("searching memory: %w", err)
			}
			if hits == nil {
				hits = []MemoryHit{}
			}
			return JSONResult(map[string]any{"hits": hits, "count": len(hits)}), nil
		},
	}
}

// WebSearchTool is web_search over a configured search service.
func WebSearchTool(w WebSearcher) Tool {
	return Tool{
		Meta: Meta{
			Name:        "web_search",
			Description: "Search the web. Returns titles, URLs and snippets.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":20}},"required":["query"]}`),
			ReadOnly: true, Scope: ScopeRead, Unattended: true,
		},
		Handler: func(ctx context.Context, c Call) (Result, error) {
			a, msg := decodeQuery(c.Args, "query is empty; pass what to search for")
			if msg != "" {
				return ErrorResult(msg), nil
			}
			if a.Limit <= 0 || a.Limit > 20 {
				a.Limit = 8
			}
			hits, err := w.WebSearch(ctx, a.Query, a.Limit)
			if err != nil {
				return ErrorResult("web search failed: " + err.Error()), nil
			}
			return JSONResult(map[string]any{"results": hits}), nil
		},
	}
}

// TranscribeTool is transcribe over a configured speech-to-text service.
// The file must be inside the run's folder.
func TranscribeTool(t Transcriber) Tool {
	return Tool{
		Meta: Meta{
			Name:        "transcribe",
			Description: "Transcribe an audio file from the run's folder to text.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"file path relative to the run's folder"}},"required":["path"]}`),
			ReadOnly: true, Scope: ScopeRead, Unattended: true,
		},
		Handler: func(ctx context.Context, c Call) (Result, error) {
			var a struct {
				Path string `json:"path"`
			}
			if msg := decodeArgs(c.Args, &a); msg != "" {
				return ErrorResult(msg), nil
			}
			p, msg := insideFolder(c.Folder, a.Path)
			if msg != "" {
				return ErrorResult(msg), nil
			}
			text, err := t.Transcribe(ctx, p)
			if err != nil {
				return ErrorResult("transcription failed: " + err.Error()), nil
			}
			return Result{Text: text}, nil
		},
	}
}
