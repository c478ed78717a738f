// Package panehook is the local channel through which an agent's hooks
// report into the pane it runs in: `osfoundry pane report working|done`
// and `osfoundry pane notify|session` (hook payload on stdin) post to the
// running app; session says which conversation runs in the pane. The channel is loopback HTTP; each pane gets its own secret in its
// environment, compared in constant time, so nothing else on the machine
// can report into a pane — not even another pane.
package panehook

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// Environment variables a pane gets.
const (
	EnvPane   = "OSF_PANE_ID"
	EnvAddr   = "OSF_PANE_ADDR"
	EnvSecret = "OSF_PANE_SECRET"
)

// maxPayload bounds a hook payload (Claude's are a few hundred bytes).
const maxPayload = 256 << 10

// Report is one message from a hook helper.
type Report struct {
	Pane    string          `json:"pane"`
	Kind    string          `json:"kind"` // "report", "notify", "session" or "acp" (one ACP protocol step)
	Arg     string          `json:"arg,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Server receives reports for the app's panes.
type Server struct {
	ln      net.Listener
	srv     *http.Server
	mu      sync.Mutex
	secrets map[string][]byte
	handle  func(Report)
}

// Start listens on 127.0.0.1 (an OS-chosen port) and hands every
// authenticated report to handle.
func Start(handle func(Report)) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for pane reports: %w", err)
	}
	s := &Server{ln: ln, secrets: map[string][]byte{}, handle: handle}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /report", s.serveReport)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Addr is the listener's host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Register creates a pane's secret and returns the environment entries the
// pane's program must get.
func (s *Server) Register(pane string) []string {
	b := make([]byte, 32)
	rand.Read(b)
	secret := hex.EncodeToString(b)
	s.mu.Lock()
	s.secrets[pane] = []byte(secret)
	s.mu.Unlock()
	return []string{EnvPane + "=" + pane, EnvAddr + "=" + s.Addr(), EnvSecret + "=" + secret}
}

// Forget drops a closed pane: its helper can no longer report.
func (s *Server) Forget(pane string) {
	s.mu.Lock()
	delete(s.secrets, pane)
	s.mu.Unlock()
}

// Close stops the listener.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return s.srv.Shutdown(ctx)
}

func (s *Server) serveReport(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Origin") != "" {
		http.Error(w, "browsers may not report into panes", http.StatusForbidden)
		return
	}
	var rep Report
	if err := json.NewDecoder(io.LimitReader(r.Body, maxPayload+4096)).Decode(&rep); err != nil {
		http.Error(w, "malformed report: "+err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	want, ok := s.secrets[rep.Pane]
	s.mu.Unlock()
	got := []byte(bearer(r))
	if !ok {
		// Same answer as a wrong secret: do not reveal which panes exist.
		http.Error(w, "unknown pane or wrong secret", http.StatusUnauthorized)
		return
	}
	if subtle.ConstantTimeCompare(got, want) != 1 {
		http.Error(w, "unknown pane or wrong secret", http.StatusUnauthorized)
		return
	}
	if rep.Kind != "report" && rep.Kind != "notify" && rep.Kind != "session" && rep.Kind != "acp" {
		http.Error(w, "kind must be report, notify, session or acp", http.StatusBadRequest)
		return
	}
	s.handle(rep)
	w.WriteHeader(http.StatusNoContent)
}

func bearer(r *http.Request) string {
	const p = "Bearer "
	h := r.Header.Get("Authorization")
	if len(h) > len(p) && h[:len(p)] == p {
		return h[len(p):]
	}
	return ""
}

// ErrNotInPane: the helper ran outside a pane the app started.
var ErrNotInPane = errors.New("not inside an osFoundry pane (" + EnvPane + ", " + EnvAddr + " and " + EnvSecret + " are not set)")

// Send posts a report using the pane's environment (getenv).
func Send(getenv func(string) string, kind, arg string, payload []byte) error {
	pane, addr, secret := getenv(EnvPane), getenv(EnvAddr), getenv(EnvSecret)
	if pane == "" || addr == "" || secret == "" {
		return ErrNotInPane
	}
	if host, _, err := net.SplitHostPort(addr); err != nil || host != "127.0.0.1" {
		return fmt.Errorf("refusing to report to %q: pane reports only go to 127.0.0.1", addr)
	}
	if len(payload) > maxPayload {
		return fmt.Errorf("hook payload of %d bytes is over the %d-byte limit", len(payload), maxPayload)
	}
	rep := Report{Pane: pane, Kind: kind, Arg: arg}
	if len(payload) > 0 {
		if !json.Valid(payload) {
			return errors.New("the hook payload on stdin is not JSON")
		}
		rep.Payload = payload
	}
	body, _ := json.Marshal(rep)
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/report", bytesReader(body))
	if err != nil {
		return fmt.Errorf("building report: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("reaching the app: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("the app refused the report: %s %s", resp.Status, msg)
	}
	return nil
}
