package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/tools"
)

// sharedRig is a bridge whose "echo" tool answers with its argument and
// whose "hold" tool waits until its call is cancelled, reporting that.
func sharedRig(t *testing.T) (*Bridge, chan struct{}, chan struct{}) {
	t.Helper()
	exec := tools.NewExecutor(tools.Options{Auditor: &tools.MemoryAuditor{}})
	schema := json.RawMessage(`{"type":"object","properties":{"say":{"type":"string"}}}`)
	must(t, exec.Register(tools.Tool{
		Meta: tools.Meta{Name: "echo", InputSchema: schema, ReadOnly: true, Unattended: true},
		Handler: func(_ context.Context, c tools.Call) (tools.Result, error) {
			var a struct{ Say string }
			_ = json.Unmarshal(c.Args, &a)
			return tools.Result{Text: "said " + a.Say}, nil
		},
	}))
	held, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	must(t, exec.Register(tools.Tool{
		Meta: tools.Meta{Name: "hold", InputSchema: schema, ReadOnly: true, Unattended: true},
		Handler: func(ctx context.Context, _ tools.Call) (tools.Result, error) {
			held <- struct{}{}
			<-ctx.Done()
			cancelled <- struct{}{}
			return tools.Result{}, ctx.Err()
		},
	}))
	b, err := Start(context.Background(), Config{Workspace: "w", Allow: []string{"echo", "hold"}, Executor: exec})
	must(t, err)
	t.Cleanup(func() { b.Close() })
	return b, held, cancelled
}

// postTo is the client side of calls that may be cancelled or that run off
// the test's goroutine (post fails the test from where it runs).
func postTo(ctx context.Context, b *Bridge, version, body string) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.URL(), strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+b.Token())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	return http.DefaultClient.Do(req)
}

// Calls from clients that reuse the same id, at the same time and under
// different protocol versions, each get their own answer under their own id.
func TestSharedSessionKeepsCallsApart(t *testing.T) {
	b, _, _ := sharedRig(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Go(func() {
			version := ProtocolVersions[i%len(ProtocolVersions)]
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"say":"n%d"}}}`, i)
			resp, err := postTo(context.Background(), b, version, body)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			var got struct {
				ID     json.RawMessage `json:"id"`
				Result struct {
					Content []struct{ Text string } `json:"content"`
				} `json:"result"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
				errs <- err
				return
			}
			if string(got.ID) != "1" || len(got.Result.Content) != 1 || got.Result.Content[0].Text != fmt.Sprintf("said n%d", i) {
				errs <- fmt.Errorf("call %d (%s) got id %s, %+v", i, version, got.ID, got.Result)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A client that hangs up while its call runs cancels that call, and the
// session goes on answering others.
func TestSharedSessionCancelsAbandonedCall(t *testing.T) {
	b, held, cancelled := sharedRig(t)
	ctx, hangUp := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := postTo(ctx, b, "2025-06-18", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"hold","arguments":{}}}`); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case <-held:
	case <-time.After(5 * time.Second):
		t.Fatal("the call never reached its tool")
	}
	hangUp()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool call went on after its client hung up")
	}
	<-done
	resp, err := postTo(context.Background(), b, "2025-06-18", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"say":"again"}}}`)
	must(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"id":9`) || !strings.Contains(string(body), "said again") {
		t.Fatalf("next call after a hang-up: %d %s", resp.StatusCode, body)
	}
}

// A session the SDK ended is replaced: the next calls are answered, none
// is lost or answered empty.
func TestSharedSessionThatEndedIsReplaced(t *testing.T) {
	b, _, _ := sharedRig(t)
	h := b.srv.Handler.(*handler)
	say := func(what string) string {
		code, _, body := post(t, b.URL(), map[string]string{"Authorization": "Bearer " + b.Token(), "Mcp-Protocol-Version": "2025-06-18"},
			`{"jsonrpc":"2.0","id":"k","method":"tools/call","params":{"name":"echo","arguments":{"say":"`+what+`"}}}`)
		return fmt.Sprint(code, " ", body)
	}
	if got := say("one"); !strings.Contains(got, "said one") {
		t.Fatalf("first call: %s", got)
	}
	h.smu.Lock()
	ended := h.sessions["2025-06-18"]
	h.smu.Unlock()
	ended.ss.Close()
	for _, w := range []string{"two", "three"} {
		if got := say(w); !strings.HasPrefix(got, "200 ") || !strings.Contains(got, "said "+w) || !strings.Contains(got, `"id":"k"`) {
			t.Fatalf("call after the session ended: %s", got)
		}
	}
	h.smu.Lock()
	now := h.sessions["2025-06-18"]
	h.smu.Unlock()
	if now == nil || now == ended {
		t.Fatal("the ended session was not replaced")
	}
}
