package usage

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Totals are tokens of each kind and their estimated cost.
type Totals struct {
	Input      int64   `json:"input"`
	Output     int64   `json:"output"`
	CacheWrite int64   `json:"cacheWrite"`
	CacheRead  int64   `json:"cacheRead"`
	Tokens     int64   `json:"tokens"`
	CostUSD    float64 `json:"costUsd"`
	Requests   int     `json:"requests"`
	// Unpriced counts requests of models without a price (not in CostUSD).
	Unpriced int `json:"unpriced"`
}

func (t *Totals) add(e claudeEntry) {
	t.Input += e.in
	t.Output += e.out
	t.CacheWrite += e.cacheWrite
	t.CacheRead += e.cacheRead
	t.Tokens += e.tokens()
	t.Requests++
	if e.priced {
		t.CostUSD += e.cost
	} else {
		t.Unpriced++
	}
}

// Window is Claude's current 5-hour window (ccusage's active block).
type Window struct {
	Start        int64  `json:"start"` // epoch ms, the first request's hour
	ResetsAt     int64  `json:"resetsAt"`
	LastActivity int64  `json:"lastActivity"`
	Totals       Totals `json:"totals"`
	// ElapsedPercent is how much of the five hours has passed.
	ElapsedPercent float64 `json:"elapsedPercent"`
	// LimitTokens is the most tokens any earlier window used (ccusage's
	// "max" token limit: Anthropic publishes no number), 0 without one;
	// UsedPercent is this window's tokens against it.
	LimitTokens int64   `json:"limitTokens"`
	UsedPercent float64 `json:"usedPercent"`
}

// Claude is Claude Code's usage from its session logs.
type Claude struct {
	Found  bool    `json:"found"` // a projects folder exists
	Files  int     `json:"files"`
	Today  Totals  `json:"today"`
	Week   Totals  `json:"week"`
	Window *Window `json:"window"` // nil when no window is active
}

// Codex is what Codex's rollouts record: its tokens and the rate limits
// its server reported with the latest turn.
type Codex struct {
	Found      bool   `json:"found"`
	Files      int    `json:"files"`
	Today      int64  `json:"today"`
	Week       int64  `json:"week"`
	Primary    *Limit `json:"primary"`
	Secondary  *Limit `json:"secondary"`
	PlanType   string `json:"planType"`
	RecordedAt int64  `json:"recordedAt"` // epoch ms of the limits, 0 when none
}

// Day is one day of the last seven (local midnight, epoch ms).
type Day struct {
	Date         string  `json:"date"` // 2026-12-04
	Start        int64   `json:"start"`
	ClaudeTokens int64   `json:"claudeTokens"`
	ClaudeCost   float64 `json:"claudeCost"`
	CodexTokens  int64   `json:"codexTokens"`
}

// Report is everything the Usage screen and the board's line show.
type Report struct {
	Now         int64  `json:"now"`
	WeekStart   int64  `json:"weekStart"` // this week's Monday, local midnight
	Claude      Claude `json:"claude"`
	Codex       Codex  `json:"codex"`
	Days        []Day  `json:"days"` // oldest first, today last
	PriceSource string `json:"priceSource"`
	PriceDate   string `json:"priceDate"`
	Skipped     int    `json:"skipped"` // corrupt or over-long lines
}

// Options say where the files are and what time it is.
type Options struct {
	Home string           // the person's home folder
	Now  func() time.Time // time.Now when nil
	Loc  *time.Location   // time.Local when nil: days start at local midnight
	// Notify shows a desktop notification (nil: none).
	Notify func(title, body string)
	// Getenv reads CLAUDE_CONFIG_DIR, XDG_CONFIG_HOME and CODEX_HOME, which
	// move the CLIs' folders (os.Getenv in the app; nil reads none).
	Getenv func(string) string
	// NotifiedFile keeps the windows already notified across restarts (in
	// the app's data folder; "" keeps them in memory only).
	NotifiedFile string
}

// Service keeps what was read of each file between refreshes.
type Service struct {
	opts     Options
	mu       sync.Mutex
	claude   map[string]*claudeFile
	codex    map[string]*codexFile
	notified map[string]bool
	ends     map[string]int64 // each notified window's end (epoch ms)
}

type claudeFile struct {
	tail
	entries []claudeEntry
}

type codexFile struct {
	tail
	entries []codexEntry
	total   int64
	limits  *codexLimits
}

// New builds the service; nothing is read until the first Report.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Loc == nil {
		o.Loc = time.Local
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	s := &Service{opts: o, claude: map[string]*claudeFile{}, codex: map[string]*codexFile{}, notified: map[string]bool{}, ends: map[string]int64{}}
	s.loadNotified()
	return s
}

// claudeRoots are where Claude Code keeps its logs, as External agents
// finds them: CLAUDE_CONFIG_DIR/projects when set, else ~/.claude/projects
// and the XDG folder some 1.0 releases wrote to (ccusage reads both).
func (s *Service) claudeRoots() []string {
	if v := s.opts.Getenv("CLAUDE_CONFIG_DIR"); v != "" {
		return []string{filepath.Join(v, "projects")}
	}
	xdg := s.opts.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(s.opts.Home, ".config")
	}
	return []string{filepath.Join(s.opts.Home, ".claude", "projects"), filepath.Join(xdg, "claude", "projects")}
}

// codexRoots hold Codex's rollouts: its sessions and the ones the person
// archived (moved, not copied: each is read once).
func (s *Service) codexRoots() []string {
	h := s.opts.Getenv("CODEX_HOME")
	if h == "" {
		h = filepath.Join(s.opts.Home, ".codex")
	}
	return []string{filepath.Join(h, "sessions"), filepath.Join(h, "archived_sessions")}
}

// Report reads what was appended since the last call and computes the
// figures; it notifies when a window first passes 80 %.
func (s *Service) Report() (Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	foundClaude := s.refreshClaude()
	foundCodex := s.refreshCodex()
	r := s.compute(s.opts.Now().In(s.opts.Loc))
	r.Claude.Found, r.Codex.Found = foundClaude, foundCodex
	s.notify(r)
	return r, nil
}

// walk lists the files under root that keep returns true for, with sizes.
func walk(root string, keep func(name string) bool, each func(path string, size int64)) bool {
	found := false
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped, the rest is read
		}
		if p == root {
			found = true
		}
		if d.IsDir() || !keep(d.Name()) {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			each(p, info.Size())
		}
		return nil
	})
	return found
}

// job is one file to bring up to date.
type job struct {
	path string
	size int64
	read func(path string, size int64)
}

// runJobs reads files on every core: a first open reads every session.
func runJobs(jobs []job) {
	n := min(runtime.GOMAXPROCS(0), len(jobs))
	next := make(chan job)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				j.read(j.path, j.size)
			}
		}()
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
}

func (s *Service) refreshClaude() bool {
	found := false
	seen := map[string]bool{}
	var jobs []job
	for _, root := range s.claudeRoots() {
		found = walk(root, func(n string) bool { return strings.HasSuffix(n, ".jsonl") }, func(p string, size int64) {
			seen[p] = true
			f := s.claude[p]
			if f == nil {
				f = &claudeFile{}
				s.claude[p] = f
			}
			jobs = append(jobs, job{p, size, f.read})
		}) || found
	}
	runJobs(jobs)
	for p := range s.claude {
		if !seen[p] {
			delete(s.claude, p)
		}
	}
	return found
}

func (f *claudeFile) read(p string, size int64) {
	var buf []byte
	n, err := f.readNew(p, size, func() { f.entries, f.skipped = nil, 0 }, func(line []byte) {
		e, ok, corrupt := parseClaude(line, &buf)
		if corrupt {
			f.skipped++
		}
		if ok {
			f.entries = append(f.entries, e)
		}
	})
	f.skipped += n
	f.err = err
}

func (s *Service) refreshCodex() bool {
	found := false
	seen := map[string]bool{}
	var jobs []job
	for _, root := range s.codexRoots() {
		found = walk(root, func(n string) bool { return strings.HasPrefix(n, "rollout-") && strings.HasSuffix(n, ".jsonl") }, func(p string, size int64) {
			seen[p] = true
			f := s.codex[p]
			if f == nil {
				f = &codexFile{}
				s.codex[p] = f
			}
			jobs = append(jobs, job{p, size, f.read})
		}) || found
	}
	runJobs(jobs)
	for p := range s.codex {
		if !seen[p] {
			delete(s.codex, p)
		}
	}
	return found
}

func (f *codexFile) read(p string, size int64) {
	n, err := f.readNew(p, size, func() { f.entries, f.total, f.limits, f.skipped = nil, 0, nil, 0 }, func(line []byte) {
		at, total, hasTotal, lim, ok, corrupt := parseCodex(line)
		if corrupt {
			f.skipped++
		}
		if !ok {
			return
		}
		if hasTotal {
			d := total - f.total
			if d < 0 { // a new count: the session was reset
				d = total
			}
			if d > 0 {
				f.entries = append(f.entries, codexEntry{at: at, tokens: d})
			}
			f.total = total
		}
		if lim != nil && (f.limits == nil || lim.at >= f.limits.at) {
			f.limits = lim
		}
	})
	f.skipped += n
	f.err = err
}
