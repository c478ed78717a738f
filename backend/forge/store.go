package forge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Record is a request opened from this app, kept so the pane's card can
// show its link, state and checks afterwards.
type Record struct {
	Dir       string      `json:"dir"`
	Branch    string      `json:"branch"`
	Repo      Repo        `json:"repo"`
	PR        PullRequest `json:"pr"`
	CheckedAt int64       `json:"checkedAt"` // unix ms of the last read
}

// Settings are the person's forge settings and opened requests, kept as
// JSON in the app's data folder (never in a repository). Tokens are not
// here: they are in the OS keychain.
type Settings struct {
	path string
	mu   sync.Mutex
	data settingsFile
}

type settingsFile struct {
	Hosts    []Host   `json:"hosts"`
	Requests []Record `json:"requests"`
	Pasted   []pasted `json:"pasted"` // hosts with a pasted token (the tokens are in the keychain)
}

// OpenSettings reads dir/forges.json (a missing file is empty settings).
func OpenSettings(dir string) (*Settings, error) {
	s := &Settings{path: filepath.Join(dir, "forges.json"), data: settingsFile{Hosts: []Host{}, Requests: []Record{}, Pasted: []pasted{}}}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the forge settings: %w", err)
	}
	if err := json.Unmarshal(b, &s.data); err != nil {
		return nil, fmt.Errorf("reading the forge settings %s: %w", s.path, err)
	}
	if s.data.Hosts == nil {
		s.data.Hosts = []Host{}
	}
	if s.data.Requests == nil {
		s.data.Requests = []Record{}
	}
	if s.data.Pasted == nil {
		s.data.Pasted = []pasted{}
	}
	return s, nil
}

// save writes a new file beside the old and renames it over (s.mu held).
func (s *Settings) save() error {
	b, err := json.MarshalIndent(s.data, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the forge settings: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("saving the forge settings: %w", err)
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("saving the forge settings: %w", err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return fmt.Errorf("saving the forge settings: %w", err)
	}
	return nil
}

// Hosts are the person's self-hosted forges.
func (s *Settings) Hosts() []Host {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Host(nil), s.data.Hosts...)
}

// SetHosts replaces the self-hosted forges after checking each.
func (s *Settings) SetHosts(hosts []Host) error {
	seen := map[string]bool{}
	clean := make([]Host, 0, len(hosts))
	for _, h := range hosts {
		h.Name = strings.ToLower(strings.TrimSpace(h.Name))
		h.API = strings.TrimSpace(h.API)
		switch {
		case h.Name == "" || strings.ContainsAny(h.Name, "/ @"):
			return fmt.Errorf("%q is not a host name: give the host as in the repository's URL, e.g. git.example.org or git.example.org:3000", h.Name)
		case h.Kind != GitHub && h.Kind != GitLab && h.Kind != Gitea:
			return fmt.Errorf("choose GitHub, GitLab or Gitea (also Forgejo) for %s", h.Name)
		case h.API != "" && !strings.HasPrefix(h.API, "https://") && !strings.HasPrefix(h.API, "http://"):
			return fmt.Errorf("the API address of %s must start with https:// (or http://)", h.Name)
		case seen[h.Name]:
			return fmt.Errorf("%s is listed twice", h.Name)
		}
		seen[h.Name] = true
		clean = append(clean, h)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.data.Hosts
	s.data.Hosts = clean
	if err := s.save(); err != nil {
		s.data.Hosts = old
		return err
	}
	return nil
}

// Record finds the request opened for branch from dir (or a folder
// inside it: a pane may open in a subfolder of its worktree), or nil.
func (s *Settings) Record(dir, branch string) *Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	dir = filepath.Clean(dir)
	for _, r := range s.data.Requests {
		top := filepath.Clean(r.Dir)
		if r.Branch == branch && (dir == top || strings.HasPrefix(dir, top+string(filepath.Separator))) {
			return &r
		}
	}
	return nil
}

// Open lists the recorded requests still open (or draft): the ones whose
// state and checks can still change.
func (s *Settings) Open() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{}
	for _, r := range s.data.Requests {
		if r.PR.State == "open" || r.PR.State == "draft" {
			out = append(out, r)
		}
	}
	return out
}

// Keep records (or updates) the request opened for r.Branch from r.Dir.
// At most maxRecords are kept; the oldest go first.
func (s *Settings) Keep(r Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{r}
	for _, o := range s.data.Requests {
		if !(o.Branch == r.Branch && filepath.Clean(o.Dir) == filepath.Clean(r.Dir)) && len(out) < maxRecords {
			out = append(out, o)
		}
	}
	old := s.data.Requests
	s.data.Requests = out
	if err := s.save(); err != nil {
		s.data.Requests = old
		return err
	}
	return nil
}

const maxRecords = 500

// Pasted lists the hosts a token was pasted for.
func (s *Settings) Pasted() []pasted {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]pasted(nil), s.data.Pasted...)
}

// notePasted records that a token for host was pasted (at ms), or drops
// host when ms is 0.
func (s *Settings) notePasted(host string, ms int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []pasted{}
	for _, p := range s.data.Pasted {
		if p.Host != host {
			out = append(out, p)
		}
	}
	if ms != 0 {
		out = append(out, pasted{Host: host, SavedAt: ms})
	}
	old := s.data.Pasted
	s.data.Pasted = out
	if err := s.save(); err != nil {
		s.data.Pasted = old
		return err
	}
	return nil
}
