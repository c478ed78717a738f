package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
)

func TestMain(m *testing.M) { os.Exit(teamtest.Main(m)) }

// wait bounds every wait on a condition; it is a hang guard, never a
// measure of speed.
const wait = 2 * time.Minute

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// answer is one tools/call as the assistant saw it.
type answer struct {
	Status  int            // HTTP status; 0 when the request got no answer
	Replica string         // which replica answered (the balancer's header)
	Retry   string         // the Retry-After header
	Result  map[string]any // the tool's JSON result
	IsError bool           // the tool said no
	Text    string         // the tool's text, for messages
	Err     error          // no answer at all (connection cut)
}

// delivered reports whether the server answered the call either way
// (a result or a refusal of the tool), as opposed to an outage: no
// answer, 5xx, or 401/429 while it is away.
func (a answer) delivered() bool { return a.Err == nil && a.Status == http.StatusOK }

func (a answer) String() string {
	if a.Err != nil {
		return "no answer: " + a.Err.Error()
	}
	return fmt.Sprintf("%d from %s (isError=%v) %s", a.Status, a.Replica, a.IsError, a.Text)
}

// call sends one tools/call through the balancer with token.
func call(tm *teamtest.Team, token, tool string, args map[string]any) answer {
	return callAt(tm.LB.Client, tm.LB.URL, token, tool, args)
}

// callAt sends one tools/call to the server at base with client.
func callAt(client *http.Client, base, token, tool string, args map[string]any) answer {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return answer{Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	a := answer{Status: resp.StatusCode, Replica: resp.Header.Get("X-Balancer-Server"), Retry: resp.Header.Get("Retry-After"), Err: err}
	if i := bytes.Index(data, []byte("data: ")); i >= 0 && bytes.HasPrefix(data, []byte("event:")) {
		data = data[i+len("data: "):]
	}
	var out struct {
		Result struct {
			IsError           bool           `json:"isError"`
			StructuredContent map[string]any `json:"structuredContent"`
			Content           []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &out) != nil {
		a.Text = string(data)
		return a
	}
	a.IsError, a.Result = out.Result.IsError, out.Result.StructuredContent
	if len(out.Result.Content) > 0 {
		a.Text = out.Result.Content[0].Text
		if a.Result == nil {
			json.Unmarshal([]byte(a.Text), &a.Result)
		}
	}
	return a
}
