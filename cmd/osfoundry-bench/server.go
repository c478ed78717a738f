package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

func init() {
	registerBench(&bench{name: "server", help: "team server: tool calls and sign-in through haproxy+TLS at 1 and 2 replicas on PostgreSQL",
		run: runBenchServer})
}

type serverOpts struct {
	rate     int
	duration time.Duration
	warmup   time.Duration
	replicas []int
	signins  int
	writers  int
	pprof    string
	pool     int
}

// serverRun is what one cluster size measured.
type serverRun struct {
	replicas       int
	searchTool     string
	search, writes loadResult
	signin         []time.Duration // authorize (page + consent) + token, server-side, per sign-in
	authorize, tok []time.Duration
	signinClient   []time.Duration // the whole connection as the host waits for it
	rss            []float64       // bytes, per replica
	poolWait       []time.Duration // mean wait for a database connection, per replica
	poolMax        int
	searchCPU      callCPU
	writesCPU      callCPU
}

func runBenchServer(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench server", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	o := serverOpts{}
	fs.IntVar(&o.rate, "rate", 500, "tool calls a second sent by each load")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "length of each measured load")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "load at the same rate before each measure, not counted")
	reps := fs.String("replicas", "1,2", "cluster sizes to measure")
	fs.IntVar(&o.signins, "signins", 25, "sign-ins (authorize, consent, token) per cluster; the endpoint allows 60 authorizations a minute from one address")
	fs.IntVar(&o.writers, "writers", 64, "Notes the guarded writes spread over (one write in flight per Note)")
	fs.IntVar(&o.pool, "pool", 0, "pool_max_conns in each replica's database URL (0: pgx's default, 4 on this machine's cores)")
	fs.StringVar(&o.pprof, "pprof", "", "folder for each measured load's CPU profile of r1 (go tool pprof FILE)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	for _, f := range strings.Split(*reps, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(env.Stderr, "bench server: -replicas %q: want sizes like 1,2\n", *reps)
			return 2
		}
		o.replicas = append(o.replicas, n)
	}
	s := &pgtest.Session{Name: "bench server", Out: env.Stderr}
	defer s.Close()
	s.Cleanup(teamtest.RemoveBinary)
	fmt.Fprintln(env.Stderr, "bench server: building osfoundry and starting PostgreSQL…")
	teamtest.Binary(s)
	pg, err := pgtest.Start()
	if err != nil {
		s.Fatal(err)
	}
	s.Cleanup(pg.Remove)
	var runs []serverRun
	before := loadAverage()
	for _, n := range o.replicas {
		runs = append(runs, benchCluster(env, s, pg, n, o))
	}
	printServerTable(env, o, runs)
	// The figures are only as good as the CPU the machine had to spare.
	fmt.Fprintf(env.Stdout, "%d CPUs; before%s; after%s\n", runtime.NumCPU(), before, loadAverage())
	return 0
}

// benchCluster starts n replicas on a fresh database and measures them.
func benchCluster(env *Env, s *pgtest.Session, pg *pgtest.Cluster, n int, o serverOpts) serverRun {
	fmt.Fprintf(env.Stderr, "bench server: %d replica(s)…\n", n)
	db := pg.Database(s)
	if o.pool > 0 {
		db += fmt.Sprintf("&pool_max_conns=%d", o.pool)
	}
	tm := teamtest.StartTeam(s, db, n)
	notes := tm.SeedNotes(s, "proj-bench", o.writers)
	kb := tm.SeedKnowledge(s, "proj-bench", 200)
	r := serverRun{replicas: n}

	// Sign-ins: every request tagged, so its server-side time is read
	// back from the replicas' JSON log lines.
	tags := &requestTags{ids: map[string]string{}}
	tr := tm.LB.Client.Transport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 512
	tagged := &http.Client{Transport: tags.wrap(tr), Timeout: time.Minute}
	tm.Owner.Once.Transport = tags.wrap(tm.Owner.Once.Transport)
	// One assistant registers once (registrations are limited to 20 a
	// minute from an address) and then signs in again and again, as a
	// host does when its tokens are gone; the first connection's token
	// carries the loads.
	t0 := time.Now()
	c, token := tm.Connect(s, "Bench", tagged, "proj-bench")
	r.signinClient = append(r.signinClient, time.Since(t0))
	for i := 1; i < o.signins; i++ {
		tags.flow.Store(int64(i))
		t0 := time.Now()
		if _, _, err := c.Discover(context.Background()); err != nil {
			s.Fatalf("sign-in %d: %v", i+1, err)
		}
		r.signinClient = append(r.signinClient, time.Since(t0))
	}
	r.signin, r.authorize, r.tok = tags.serverTimes(tm.Replicas)

	load := &http.Client{Transport: tr, Timeout: time.Minute}
	judgeSearch := func(res *vegeta.Result) string { _, why := toolAnswer(int(res.Code), res.Body); return why }
	// memory_search when the endpoint offers it; otherwise the full-text
	// search it does offer, over the same PostgreSQL text index.
	tools, err := offered(load, tm.LB.URL, token)
	if err != nil {
		s.Fatal(err)
	}
	r.searchTool = "memory_search"
	searchArgs := map[string]any{}
	if !tools[r.searchTool] {
		r.searchTool, searchArgs = "search_knowledge_base", map[string]any{"knowledge_base_id": kb}
	}
	attack(load, searchTargets(tm.LB.URL, token, r.searchTool, searchArgs), o.rate, o.warmup, judgeSearch)
	done := profile(env, o, tm.Replicas[0].URL, fmt.Sprintf("server-%dr-search.pprof", n))
	cpu := startCPU(tm)
	r.search = attack(load, searchTargets(tm.LB.URL, token, r.searchTool, searchArgs), o.rate, o.duration, judgeSearch)
	r.searchCPU = cpu.stop(r.search.OK + r.search.Errors)
	done()

	var ws []*writer
	for _, nr := range notes {
		ws = append(ws, &writer{note: nr.ID, tab: nr.Tab, version: nr.Version})
	}
	wl := newWriteLoad(tm.LB.URL, token, ws)
	attack(load, wl.target, o.rate, o.warmup, wl.judge)
	done = profile(env, o, tm.Replicas[0].URL, fmt.Sprintf("server-%dr-writes.pprof", n))
	cpu = startCPU(tm)
	r.writes = attack(load, wl.target, o.rate, o.duration, wl.judge)
	r.writesCPU = cpu.stop(r.writes.OK + r.writes.Errors)
	done()

	for _, rep := range tm.Replicas {
		m := replicaMetrics(rep.URL)
		r.rss = append(r.rss, m["process_resident_memory_bytes"])
		if a := m["osfoundry_db_pool_acquires_total"]; a > 0 {
			r.poolWait = append(r.poolWait, time.Duration(m["osfoundry_db_pool_acquire_seconds_total"]/a*float64(time.Second)))
			r.poolMax = int(m["osfoundry_db_pool_max_conns"])
		}
	}
	return r
}

// profile records r1's CPU profile over the coming load into o.pprof;
// the returned func waits for it.
func profile(env *Env, o serverOpts, base, name string) func() {
	if o.pprof == "" {
		return func() {}
	}
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		secs := max(1, int(o.duration.Seconds())-1)
		resp, err := http.Get(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", base, secs))
		if err != nil {
			fmt.Fprintf(env.Stderr, "bench server: profiling: %v\n", err)
			return
		}
		defer resp.Body.Close()
		f, err := os.Create(filepath.Join(o.pprof, name))
		if err != nil {
			fmt.Fprintf(env.Stderr, "bench server: profiling: %v\n", err)
			return
		}
		defer f.Close()
		io.Copy(f, resp.Body)
	}()
	return func() { <-ch }
}

// callCPU is the CPU time one call cost the replicas (all together) and
// PostgreSQL: what the server needs, whatever else the machine runs.
type callCPU struct{ replicas, postgres time.Duration }

// cpuMeter reads the replicas' process_cpu_seconds_total and the CPU
// time of the database's PostgreSQL backends before and after a load.
type cpuMeter struct {
	tm       *teamtest.Team
	db       string
	rep, sql time.Duration
}

func startCPU(tm *teamtest.Team) *cpuMeter {
	m := &cpuMeter{tm: tm, db: dbName(tm.DB)}
	m.rep, m.sql = m.read()
	return m
}

func (m *cpuMeter) read() (rep, sql time.Duration) {
	for _, r := range m.tm.Replicas {
		rep += time.Duration(replicaMetrics(r.URL)["process_cpu_seconds_total"] * float64(time.Second))
	}
	return rep, backendsCPU(m.db)
}

func (m *cpuMeter) stop(calls int) callCPU {
	rep, sql := m.read()
	if calls == 0 {
		return callCPU{}
	}
	return callCPU{replicas: (rep - m.rep) / time.Duration(calls), postgres: (sql - m.sql) / time.Duration(calls)}
}

// dbName is the database of a postgres:// URL.
func dbName(u string) string {
	u, _, _ = strings.Cut(u, "?")
	return u[strings.LastIndex(u, "/")+1:]
}

// backendsCPU sums the CPU time of the PostgreSQL backends serving db
// (their process title names it), from /proc; 0 off Linux.
func backendsCPU(db string) time.Duration {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var total time.Duration
	for _, p := range procs {
		cmd, err := os.ReadFile(p)
		if err != nil || !strings.HasPrefix(string(cmd), "postgres: ") || !strings.Contains(string(cmd), " "+db+" ") {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stat"))
		if err != nil {
			continue
		}
		// fields after the command's closing parenthesis: utime is the 12th, stime the 13th
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 13 {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(ut+st) * (time.Second / 100) // USER_HZ is 100 on Linux
	}
	return total
}

// requestTags names every request of a sign-in with an X-Request-Id, and
// remembers which step of which sign-in each was.
type requestTags struct {
	flow atomic.Int64
	n    atomic.Int64
	mu   sync.Mutex
	ids  map[string]string // request id → "flow step"
}

type tagTransport struct {
	tags *requestTags
	next http.RoundTripper
}

func (t *requestTags) wrap(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &tagTransport{tags: t, next: next}
}

func (t *tagTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	step := ""
	switch {
	case req.URL.Path == "/oauth/authorize" && req.Method == http.MethodGet:
		step = "authorize"
	case req.URL.Path == "/oauth/authorize" && req.Method == http.MethodPost:
		step = "authorize"
	case req.URL.Path == "/oauth/token":
		step = "token"
	}
	if step == "" {
		return t.next.RoundTrip(req)
	}
	id := fmt.Sprintf("bench-signin-%d", t.tags.n.Add(1))
	t.tags.mu.Lock()
	t.tags.ids[id] = fmt.Sprintf("%d %s", t.tags.flow.Load(), step)
	t.tags.mu.Unlock()
	req = req.Clone(req.Context())
	req.Header.Set("X-Request-Id", id)
	return t.next.RoundTrip(req)
}

// serverTimes reads the replicas' log lines of the tagged requests and
// sums them per sign-in: the whole (authorize page, consent, token), the
// authorize steps, and the token.
func (t *requestTags) serverTimes(reps []*teamtest.Replica) (whole, authorize, token []time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	type sums struct{ authorize, token time.Duration }
	per := map[string]*sums{}
	for _, rep := range reps {
		lines, _ := rep.Logs()
		for _, l := range lines {
			id, _ := l["request_id"].(string)
			tag, ok := t.ids[id]
			if !ok || l["msg"] != "request" {
				continue
			}
			ms, _ := l["duration_ms"].(float64)
			d := time.Duration(ms * float64(time.Millisecond))
			flow, step, _ := strings.Cut(tag, " ")
			if per[flow] == nil {
				per[flow] = &sums{}
			}
			if step == "token" {
				per[flow].token += d
			} else {
				per[flow].authorize += d
			}
		}
	}
	for _, s := range per {
		whole = append(whole, s.authorize+s.token)
		authorize = append(authorize, s.authorize)
		token = append(token, s.token)
	}
	for _, ds := range [][]time.Duration{whole, authorize, token} {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	}
	return whole, authorize, token
}

// replicaMetrics reads the unlabelled figures of a replica's /metrics.
func replicaMetrics(base string) map[string]float64 {
	out := map[string]float64{}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		name, v, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") || strings.Contains(name, "{") {
			continue
		}
		f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
		out[name] = f
	}
	return out
}

func printServerTable(env *Env, o serverOpts, runs []serverRun) {
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	var rows [][]string
	for _, r := range runs {
		for _, l := range []struct {
			name string
			res  loadResult
			cpu  callCPU
		}{{r.searchTool, r.search, r.searchCPU}, {"edit_note_tab (guarded)", r.writes, r.writesCPU}} {
			rows = append(rows,
				[]string{fmt.Sprintf("%s, %d replica(s), %d/s offered: served", l.name, r.replicas, o.rate),
					fmt.Sprintf("%.0f calls/s", l.res.Throughput), "≥ 500 calls/s", ""},
				[]string{"  p50 / p99", ms(l.res.P50) + " / " + ms(l.res.P99), "p99 ≤ 50 ms", "desktop (SQLite, loopback): 0.43–0.78 ms p50"},
				[]string{"  errors", fmt.Sprintf("%d of %d%s", l.res.Errors, l.res.Sent, whyText(l.res.Why)), "0", ""},
				[]string{"  CPU per call: replicas + PostgreSQL", fmt.Sprintf("%.2f ms + %.2f ms", float64(l.cpu.replicas.Microseconds())/1000, float64(l.cpu.postgres.Microseconds())/1000), "", ""},
				[]string{"  → calls/s two free cores would serve", capacity(l.cpu), "≥ 500 calls/s", ""},
			)
		}
		q := quantile
		rows = append(rows,
			[]string{fmt.Sprintf("sign-in, authorize → token, server-side (n=%d) p50", len(r.signin)), ms(q(r.signin, .5)), "≤ 30 ms", ""},
			[]string{"  authorize (page + consent) p50 / token p50", ms(q(r.authorize, .5)) + " / " + ms(q(r.tok, .5)), "", ""},
			[]string{"  whole connection as the host waits (client) p50", ms(q(sortedCopy(r.signinClient), .5)), "", "desktop discovery: 7.5–13.4 ms (Python)"},
		)
		var mem []string
		for i, b := range r.rss {
			mem = append(mem, fmt.Sprintf("r%d %.0f MiB", i+1, b/(1<<20)))
		}
		rows = append(rows, []string{"  memory (RSS) per replica after the loads", strings.Join(mem, ", "), "", ""})
		var waits []string
		for _, w := range r.poolWait {
			waits = append(waits, ms(w))
		}
		rows = append(rows, []string{fmt.Sprintf("  mean wait for one of %d database connections", r.poolMax), strings.Join(waits, ", "), "", ""})
	}
	printTable(env, []string{"MEASURE", "MEASURED", "TARGET", "REFERENCE"}, rows)
}

// capacity is how many calls a second two cores would serve at this CPU
// cost, haproxy's TLS and the client not counted.
func capacity(c callCPU) string {
	per := c.replicas + c.postgres
	if per <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f calls/s", 2*float64(time.Second)/float64(per))
}

func whyText(why map[string]int) string {
	if len(why) == 0 {
		return ""
	}
	var parts []string
	for k, v := range why {
		if len(k) > 60 {
			k = k[:60] + "…"
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", k, v))
	}
	sort.Strings(parts)
	if len(parts) > 3 {
		parts = append(parts[:3], "…")
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func sortedCopy(ds []time.Duration) []time.Duration {
	out := append([]time.Duration(nil), ds...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
