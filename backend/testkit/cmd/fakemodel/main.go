// Command fakemodel serves the scripted fake model API (backend/testkit/
// fakemodel) as a process, so the browser end-to-end run can start the real
// Claude Code from the app against it. It prints {"url": …} as one JSON
// line and serves until stdin closes or it gets SIGTERM.
//
// Control endpoints (loopback, test runs only):
//
//	POST /_testkit/push?scenario=NAME[&pane=ID]   append a named scenario's turns
//	POST /_testkit/push?scenario=title&text=T     the next chat title (Titling role)
//	GET  /_testkit/requests             the main requests so far, with tool results
//	GET  /_testkit/titles               the Titling role's requests so far
//
// The Titling role's requests never take a scenario's turns: they are
// answered with a title pushed for them, else fakemodel.DefaultTitle.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/osfoundry/desktop/backend/testkit/fakemodel"
)

// scenarios are the scripts a spec can ask for by name, with the push
// request's query as parameters.
var scenarios = map[string]func(q url.Values) ([]fakemodel.Turn, error){
	// chat: the Worker runs a shell command, loads and calls the app's
	// memory_search through the bridge, then answers. Each turn starts after
	// a pause so the progress lines visibly arrive one by one.
	"chat": func(url.Values) ([]fakemodel.Turn, error) {
		return paced(700*time.Millisecond,
			fakemodel.ClaudeBash("echo e2e-$((6*7))", "Compute the marker"),
			fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "memory_search")),
			fakemodel.ClaudeMCP("osfoundry", "memory_search", map[string]any{"query": "launch checklist"}),
			fakemodel.Text("The marker is e2e-42 and your knowledge folder has the launch checklist: ship the beta on Friday."),
		), nil
	},
	// approve: the Worker types into the user's terminal pane (pane=ID)
	// with runtime_send, which waits for the user's Approve or Decline.
	"approve": func(q url.Values) ([]fakemodel.Turn, error) {
		pane := q.Get("pane")
		if pane == "" {
			return nil, errors.New("the approve scenario needs pane=<terminal pane id>")
		}
		return paced(300*time.Millisecond,
			fakemodel.ClaudeToolSearch(fakemodel.MCPName("osfoundry", "runtime_send")),
			fakemodel.ClaudeMCP("osfoundry", "runtime_send", map[string]any{"id": pane, "text": "echo approved-by-e2e"}),
			fakemodel.Text("I typed the check into your terminal."),
		), nil
	},
	// worktree: the Worker writes a file with the shell (in the run's own
	// worktree when the chat isolates runs) and says so.
	"worktree": func(url.Values) ([]fakemodel.Turn, error) {
		return paced(300*time.Millisecond,
			fakemodel.ClaudeBash("printf 'Ship the beta on Friday.\\n' > RELEASE-NOTES.md", "Write the release notes"),
			fakemodel.Text("Wrote RELEASE-NOTES.md."),
		), nil
	},
	// write: the Worker writes one line (text=) to a file (file=) with the
	// shell, commits it when commit= gives a message, and says "Wrote
	// <file>." Names and texts are plain words, so the command stays one
	// argv-safe line.
	"write": func(q url.Values) ([]fakemodel.Turn, error) {
		file, text, commit := q.Get("file"), q.Get("text"), q.Get("commit")
		if !safeName.MatchString(file) || !safeText.MatchString(text) || commit != "" && !safeText.MatchString(commit) {
			return nil, errors.New("the write scenario needs file=<name of letters, digits, . _ -> and text=<words> (commit=<words> optional)")
		}
		cmd := fmt.Sprintf("printf '%%s\\n' '%s' > %s", text, file)
		if commit != "" {
			cmd += fmt.Sprintf(" && git add %s && git commit -q -m '%s'", file, commit)
		}
		return paced(300*time.Millisecond,
			fakemodel.ClaudeBash(cmd, "Write "+file),
			fakemodel.Text("Wrote "+file+"."),
		), nil
	},
	// slow: an answer that takes long enough to cancel or pause. It
	// outlasts the specs' own waits on a loaded machine (the e2e runner
	// stretches them fourfold, to 2 minutes) and stays under Claude Code's
	// 10-minute request timeout, after which it would ask again.
	"slow": func(url.Values) ([]fakemodel.Turn, error) {
		return []fakemodel.Turn{fakemodel.Slow(5*time.Minute, "too late")}, nil
	},
	// say: one plain answer, text=… (a conversation in a terminal pane),
	// after delay=… (a Go duration; the agent works meanwhile).
	"say": func(q url.Values) ([]fakemodel.Turn, error) {
		if q.Get("text") == "" {
			return nil, errors.New("the say scenario needs text=<the answer>")
		}
		t := fakemodel.Text(q.Get("text"))
		if d := q.Get("delay"); d != "" {
			var err error
			if t.Delay, err = time.ParseDuration(d); err != nil {
				return nil, fmt.Errorf("say delay=%q: %w", d, err)
			}
		}
		return []fakemodel.Turn{t}, nil
	},
	// verify: the sign-in check's minimal completion.
	"verify": func(url.Values) ([]fakemodel.Turn, error) { return []fakemodel.Turn{fakemodel.Text("ok")}, nil },
}

var (
	safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	safeText = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 .,:!-]*$`)
)

func paced(d time.Duration, turns ...fakemodel.Turn) []fakemodel.Turn {
	for i := range turns {
		turns[i].Delay = d
	}
	return turns
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	preload := flag.String("scenario", "", "comma-separated scenarios to load at start")
	flag.Parse()
	if err := run(*addr, *preload); err != nil {
		fmt.Fprintln(os.Stderr, "fakemodel:", err)
		os.Exit(1)
	}
}

func run(addr, preload string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
		return fmt.Errorf("-addr %q: give a loopback host:port such as 127.0.0.1:0", addr)
	}
	srv, err := fakemodel.New()
	if err != nil {
		return err
	}
	defer srv.Close()
	for _, name := range strings.Split(preload, ",") {
		if name = strings.TrimSpace(name); name != "" {
			if err := push(srv, name, nil); err != nil {
				return err
			}
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_testkit/push", func(w http.ResponseWriter, r *http.Request) {
		if err := push(srv, r.URL.Query().Get("scenario"), r.URL.Query()); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_testkit/reset", func(w http.ResponseWriter, r *http.Request) {
		srv.Reset()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_testkit/requests", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(summaries(srv.MainRequests())) //nolint:errcheck // client gone
	})
	mux.HandleFunc("GET /_testkit/titles", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(summaries(srv.TitleRequests())) //nolint:errcheck // client gone
	})
	mux.Handle("/", srv)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln) //nolint:errcheck // returns on Shutdown
	line, _ := json.Marshal(map[string]string{"url": "http://" + ln.Addr().String()})
	fmt.Println(string(line))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	stdin := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin) //nolint:errcheck // EOF or error both mean: stop
		close(stdin)
	}()
	select {
	case <-ctx.Done():
	case <-stdin:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

func push(srv *fakemodel.Server, name string, q url.Values) error {
	if name == "title" {
		if q.Get("text") == "" {
			return errors.New("the title scenario needs text=<the title>")
		}
		srv.PushTitle(fakemodel.Text(q.Get("text")))
		return nil
	}
	f, ok := scenarios[name]
	if !ok {
		names := make([]string, 0, len(scenarios))
		for n := range scenarios {
			names = append(names, n)
		}
		names = append(names, "title")
		sort.Strings(names)
		return fmt.Errorf("unknown scenario %q: use one of %s", name, strings.Join(names, ", "))
	}
	turns, err := f(q)
	if err != nil {
		return err
	}
	srv.Push(turns...)
	return nil
}

// summary is one main request as a spec checks it.
type summary struct {
	API         string   `json:"api"`
	Turn        int      `json:"turn"`
	Summary     string   `json:"summary"`
	Tools       []string `json:"tools"`
	ToolResults []string `json:"toolResults"`
	// Messages is how many messages the request carried: a conversation
	// resumed after a restart sends its earlier turns again.
	Messages int `json:"messages"`
	// Last is the request's last message whole (JSON): what a person or
	// the app typed into the agent, for specs that check it arrived.
	Last string `json:"last"`
	// Model is the model the CLI asked for.
	Model string `json:"model"`
}

func summaries(reqs []fakemodel.Request) []summary {
	out := []summary{}
	for _, r := range reqs {
		s := summary{API: r.API, Turn: r.Turn, Summary: r.Summary(), Tools: r.ToolNames(), ToolResults: []string{}}
		s.Model, _ = r.JSON()["model"].(string)
		if msgs, ok := r.JSON()["messages"].([]any); ok {
			s.Messages = len(msgs)
			if len(msgs) > 0 {
				b, _ := json.Marshal(msgs[len(msgs)-1])
				s.Last = string(b)
			}
		}
		for _, tr := range r.ToolResults() {
			s.ToolResults = append(s.ToolResults, tr.Text)
		}
		out = append(out, s)
	}
	return out
}
