package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/osfoundry/desktop/backend/inventory"
	"github.com/osfoundry/desktop/backend/store"
)

func init() {
	registerBench(&bench{name: "sessions", help: "External agents: index, refresh, search and transcript speed on generated corpora", run: benchSessions})
}

// heapPeak samples the Go heap every 200 µs while fn runs and returns the
// peak above the heap in use before it started.
func heapPeak(fn func()) (d time.Duration, extra uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		var s runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				runtime.ReadMemStats(&s)
				if s.HeapInuse > peak.Load() {
					peak.Store(s.HeapInuse)
				}
			}
		}
	}()
	start := time.Now()
	fn()
	d = time.Since(start)
	close(stop)
	<-done
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > peak.Load() {
		peak.Store(ms.HeapInuse)
	}
	if p := peak.Load(); p > base {
		extra = p - base
	}
	return d, extra
}

// median sorts v in place and returns its middle value.
func median[T cmp.Ordered](v []T) T {
	slices.Sort(v)
	return v[len(v)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
func mb(b uint64) string        { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

func benchSessions(env *Env, args []string) int {
	fs := flag.NewFlagSet("bench sessions", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	keep := fs.Bool("keep", false, "keep the generated corpora")
	dir := fs.String("dir", "", "where to generate (default: a temp folder)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench sessions: %v\n", err)
		return 2
	}
	root := *dir
	if root == "" {
		var err error
		if root, err = os.MkdirTemp("", "osfoundry-bench-sessions-"); err != nil {
			fmt.Fprintf(env.Stderr, "osfoundry-bench sessions: %v\n", err)
			return 1
		}
	}
	if !*keep {
		defer os.RemoveAll(root)
	}
	if err := runSessionsBench(env, root); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry-bench sessions: %v\n", err)
		return 1
	}
	return 0
}

func newBenchService(ctx context.Context, home, dbPath string) (*inventory.Service, func(), error) {
	db, err := store.Open(dbPath)
	if err != nil {
		return nil, nil, err
	}
	svc, err := inventory.New(ctx, db, inventory.Options{Env: inventory.Env{Home: home}})
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return svc, func() { db.Close() }, nil
}

func runSessionsBench(env *Env, root string) error {
	ctx := context.Background()
	fmt.Fprintf(env.Stdout, "Generating corpora in %s …\n", root)
	seed, err := inventory.GenerateSeedCorpus(filepath.Join(root, "seed"))
	if err != nil {
		return fmt.Errorf("generating the reference-shaped corpus: %w", err)
	}
	scale1k, err := inventory.GenerateScaleCorpus(filepath.Join(root, "scale1k"), 1000)
	if err != nil {
		return err
	}
	scale10k, err := inventory.GenerateScaleCorpus(filepath.Join(root, "scale10k"), 10000)
	if err != nil {
		return err
	}
	dense := filepath.Join(root, "dense", "median.jsonl")
	if err := inventory.WriteDenseTranscript(dense, 168<<20); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "seed: %d sessions, %.1f GB apparent (sparse), largest %s\n\n", seed.Sessions, float64(seed.Apparent)/(1<<30), filepath.Base(seed.Largest))

	var rows [][]string
	// Cold index of the reference-shaped corpus (a fresh database each run), taken in
	// turn with the reference indexer (the reference article's design, this machine) so
	// that each ratio compares two runs made under the same load.
	const pairs = 9
	var colds, refs, refsParsed []time.Duration
	var ratios, ratiosParsed []float64
	var count, refFiles int
	for i := 0; i < pairs; i++ {
		// Each timed run starts from a collected heap, so none pays for the
		// garbage of the run before it (the json-decoding reference leaves
		// hundreds of MB).
		runtime.GC()
		t := time.Now()
		n, err := referenceIndex(seed.Home, false)
		if err != nil {
			return err
		}
		ref := time.Since(t)
		refFiles = n
		runtime.GC()
		t = time.Now()
		if _, err := referenceIndex(seed.Home, true); err != nil {
			return err
		}
		refParsed := time.Since(t)
		svc, closeDB, err := newBenchService(ctx, seed.Home, filepath.Join(root, fmt.Sprintf("cold%d.db", i)))
		if err != nil {
			return err
		}
		// Timed on its own: heapPeak's sampler stops the world every 200 µs,
		// which the reference runs never paid.
		runtime.GC()
		t = time.Now()
		_, rerr := svc.Refresh(ctx)
		d := time.Since(t)
		if rerr != nil {
			closeDB()
			return rerr
		}
		colds, refs, refsParsed = append(colds, d), append(refs, ref), append(refsParsed, refParsed)
		ratios = append(ratios, d.Seconds()/ref.Seconds())
		ratiosParsed = append(ratiosParsed, d.Seconds()/refParsed.Seconds())
		count = len(svc.List("", ""))
		closeDB()
	}
	// Peak memory of one more cold index, measured apart from the timing.
	svcMem, closeMem, err := newBenchService(ctx, seed.Home, filepath.Join(root, "coldmem.db"))
	if err != nil {
		return err
	}
	var merr error
	_, coldMem := heapPeak(func() { _, merr = svcMem.Refresh(ctx) })
	closeMem()
	if merr != nil {
		return merr
	}
	rows = append(rows,
		[]string{fmt.Sprintf("cold index, reference corpus (%d sessions, no cache)", count), ms(median(colds)) + " (min " + ms(slicesMin(colds)) + ")", "≤ 25 ms", "86 ms head+tail of 40 files; 80–150 ms whole index"},
		[]string{fmt.Sprintf("reference: reference design, head+tail bytes of %d files, no parsing", refFiles), ms(median(refs)), "-", "-"},
		[]string{"reference: reference design, every head+tail line json-decoded", ms(median(refsParsed)), "-", "86 ms (Python json.loads)"},
		[]string{fmt.Sprintf("cold index ÷ reference without parsing (median of %d pairs)", pairs), fmt.Sprintf("%.2f×", median(ratios)), "≤ 0.15×", "-"},
		[]string{fmt.Sprintf("cold index ÷ reference json-decoded (median of %d pairs)", pairs), fmt.Sprintf("%.3f×", median(ratiosParsed)), "-", "-"},
	)

	svc, closeDB, err := newBenchService(ctx, seed.Home, filepath.Join(root, "seed.db"))
	if err != nil {
		return err
	}
	defer closeDB()
	if _, err := svc.Refresh(ctx); err != nil {
		return err
	}
	rows = append(rows, []string{"warm refresh, reference corpus (nothing changed)", ms(timeN(20, func() { svc.Refresh(ctx) })), "-", "-"})
	f, err := os.OpenFile(seed.Largest, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	var grown []time.Duration
	for i := 0; i < 5; i++ {
		fmt.Fprintf(f, `{"type":"custom-title","customTitle":"grown %d"}`+"\n", i)
		t := time.Now()
		if _, err := svc.Refresh(ctx); err != nil {
			return err
		}
		grown = append(grown, time.Since(t))
	}
	f.Close()
	rows = append(rows, []string{"refresh after one 2 GB file grew", ms(median(grown)), "-", "-"})

	s1k, close1k, err := newBenchService(ctx, scale1k.Home, filepath.Join(root, "s1k.db"))
	if err != nil {
		return err
	}
	defer close1k()
	d1k, _ := heapPeak(func() { s1k.Refresh(ctx) })
	rows = append(rows, []string{"cold index, 1,000 sessions", ms(d1k), "-", "-"})
	rows = append(rows, []string{"warm refresh, 1,000 sessions", ms(timeN(20, func() { s1k.Refresh(ctx) })), "≤ 3 ms", "-"})
	// The watcher's refresh: a file changed in one project folder, so only
	// that folder is listed (the poll still lists everything).
	oneDir := []string{filepath.Dir(s1k.List("", "")[0].Path)}
	rows = append(rows, []string{"watcher refresh, 1,000 sessions (one folder changed)", ms(timeN(20, func() { s1k.RefreshDirs(ctx, oneDir) })), "-", "-"})

	s10k, close10k, err := newBenchService(ctx, scale10k.Home, filepath.Join(root, "s10k.db"))
	if err != nil {
		return err
	}
	defer close10k()
	d10k, _ := heapPeak(func() { s10k.Refresh(ctx) })
	rows = append(rows, []string{"cold index, 10,000 sessions", ms(d10k), "-", "-"})
	rows = append(rows, []string{"warm refresh, 10,000 sessions", ms(timeN(10, func() { s10k.Refresh(ctx) })), "-", "-"})
	for _, q := range []string{"tidy module 42", "feature/task-9999", "repo-017", "no such thing"} {
		n := s10k.Count(q, "")
		rows = append(rows, []string{fmt.Sprintf("search 10,000: %q (%d hits)", q, n), ms(timeN(50, func() { s10k.List(q, "") })), "≤ 2 ms", "-"})
	}

	// First rows of the 2 GB transcript.
	key := "claude-code:" + seed.LargestID
	var page inventory.Page
	var perr error
	dFirst, memFirst := heapPeak(func() { page, perr = svc.Transcript(ctx, key, 0, 200) })
	if perr != nil {
		return perr
	}
	rows = append(rows, []string{fmt.Sprintf("first %d rows of the %.2f GB transcript", len(page.Rows), float64(fileSize(seed.Largest))/(1<<30)), ms(dFirst) + ", +" + mb(memFirst), "≤ 300 ms, < 100 MB", "-"})
	rows = append(rows, []string{"peak extra memory, cold reference-corpus index", mb(coldMem), "-", "-"})

	// Naive baseline: a full json parse of a dense median-size file.
	var lines int
	var nerr error
	dNaive, memNaive := heapPeak(func() { lines, nerr = inventory.NaiveFullParse(dense) })
	if nerr != nil {
		return nerr
	}
	perByte := float64(dNaive) / float64(fileSize(dense))
	rows = append(rows, []string{fmt.Sprintf("naive full parse, one 168 MB transcript (%d lines)", lines), ms(dNaive) + ", +" + mb(memNaive), "-", "0.61 s (Python json.loads)"})
	rows = append(rows, []string{"naive full parse, reference corpus (extrapolated at that rate)", fmt.Sprintf("%.1f s", perByte*float64(seed.Apparent)/1e9), "-", "≈70 s"})
	rows = append(rows, []string{"naive first rows of 2 GB (parse all, extrapolated)", fmt.Sprintf("%.1f s", perByte*float64(fileSize(seed.Largest))/1e9), "-", "-"})

	printTable(env, []string{"MEASURE", "THIS BUILD", "TARGET", "REFERENCE ARTICLE (Apple M1)"}, rows)
	fmt.Fprintf(env.Stdout, "\n%s/%s, %d CPUs, %s; files in the page cache (just written).\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	return nil
}

func timeN(n int, fn func()) time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		t := time.Now()
		fn()
		ds[i] = time.Since(t)
	}
	return median(ds)
}

func slicesMin(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = min(m, d)
	}
	return m
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}
