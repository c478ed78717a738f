package tools

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/osfoundry/desktop/backend/filelock"
	"github.com/osfoundry/desktop/backend/store"
)

// journalEntry is one line of an audit journal: the entry and a key unique
// to it across processes.
type journalEntry struct {
	Key string `json:"k"`
	AuditEntry
}

// journal is a process's append-only audit file. The process holds a lock
// on it while it lives; a journal whose lock can be taken belongs to a
// process that ended, and its lines are imported.
type journal struct {
	insert func(context.Context, []journalEntry) error
	prefix string // file name without extension: the keys' prefix
	seq    atomic.Uint64

	mu      sync.Mutex // orders append and truncate
	f       *os.File
	pending []journalEntry

	flushMu sync.Mutex // one flush at a time
	kick    chan struct{}
	done    chan struct{}
	stopped chan struct{}
}

const journalExt = ".audit-journal"

// journalBatch is how long the background writer gathers calls before it
// commits them together.
const journalBatch = 50 * time.Millisecond

// journalSeq tells apart two auditors of one process opened in the same
// nanosecond.
var journalSeq atomic.Uint64

// journalDir is the journals' folder beside the database file, or "" for
// a database without one (in memory).
func journalDir(ctx context.Context, db *sql.DB) (string, error) {
	dir, err := store.Dir(ctx, db)
	if err != nil || dir == "" {
		return "", err
	}
	return filepath.Join(dir, "audit-journal"), nil
}

func openJournal(dir string, insert func(context.Context, []journalEntry) error) (*journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("making the audit journal folder: %w", err)
	}
	prefix := fmt.Sprintf("%d-%d-%d", os.Getpid(), time.Now().UnixNano(), journalSeq.Add(1))
	f, err := filelock.TryLockFlags(filepath.Join(dir, prefix+journalExt), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_TRUNC)
	if err != nil {
		return nil, fmt.Errorf("opening the audit journal: %w", err)
	}
	j := &journal{insert: insert, prefix: prefix, f: f,
		kick: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	go j.writer()
	return j, nil
}

// append writes e to the file before returning, then wakes the writer.
func (j *journal) append(e AuditEntry) error {
	je := journalEntry{Key: j.prefix + "-" + strconv.FormatUint(j.seq.Add(1), 10), AuditEntry: e}
	line, err := json.Marshal(je)
	if err != nil {
		return err
	}
	j.mu.Lock()
	if j.f == nil {
		j.mu.Unlock()
		return errors.New("the audit journal is closed")
	}
	_, err = j.f.Write(append(line, '\n'))
	if err == nil {
		j.pending = append(j.pending, je)
	}
	j.mu.Unlock()
	if err != nil {
		return fmt.Errorf("writing the audit journal: %w", err)
	}
	select {
	case j.kick <- struct{}{}:
	default:
	}
	return nil
}

func (j *journal) writer() {
	defer close(j.stopped)
	for {
		select {
		case <-j.kick:
		case <-j.done:
			return
		}
		// Calls that come in the meantime share one commit.
		select {
		case <-time.After(journalBatch):
		case <-j.done:
			return // close flushes
		}
		// A failed insert stays pending (and in the file) for the next
		// wake-up, List, or the next process to open.
		_ = j.flush()
	}
}

// flush moves what is pending into the database and empties the file once
// nothing is left pending.
func (j *journal) flush() error {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	j.mu.Lock()
	batch := j.pending
	j.pending = nil
	j.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := j.insert(context.Background(), batch); err != nil {
		j.mu.Lock()
		j.pending = append(batch, j.pending...)
		j.mu.Unlock()
		return fmt.Errorf("writing the tool audit: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.pending) == 0 && j.f != nil {
		// Every line is in the database. Appends go on at offset 0
		// (O_APPEND); a failed truncate only means a later import skips
		// lines already there.
		_ = j.f.Truncate(0)
	}
	return nil
}

func (j *journal) close() error {
	close(j.done)
	<-j.stopped
	err := j.flush()
	j.mu.Lock()
	defer j.mu.Unlock()
	name := j.f.Name()
	cerr := j.f.Close()
	j.f = nil
	if err != nil {
		return err // the file stays for the next process to import
	}
	if cerr != nil {
		return fmt.Errorf("closing the audit journal: %w", cerr)
	}
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("removing the audit journal: %w", err)
	}
	return nil
}

// importJournals moves the lines of journals left by ended processes into
// the database and removes those files. A journal another process holds is
// left alone; a torn last line (killed mid-write) is skipped.
func (a *SQLAuditor) importJournals(ctx context.Context, dir string) error {
	names, err := filepath.Glob(filepath.Join(dir, "*"+journalExt))
	if err != nil {
		return fmt.Errorf("reading the audit journals: %w", err)
	}
	for _, name := range names {
		f, err := filelock.TryLock(name)
		if errors.Is(err, filelock.ErrLocked) {
			continue
		}
		if err != nil {
			return fmt.Errorf("importing the audit journal: %w", err)
		}
		es, rerr := readJournal(f)
		if rerr == nil && len(es) > 0 {
			rerr = a.insert(ctx, es)
		}
		f.Close()
		if rerr != nil {
			return fmt.Errorf("importing the audit journal %s: %w", filepath.Base(name), rerr)
		}
		if err := os.Remove(name); err != nil {
			return fmt.Errorf("removing the imported audit journal: %w", err)
		}
	}
	return nil
}

func readJournal(f *os.File) ([]journalEntry, error) {
	var out []journalEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		var je journalEntry
		if len(line) == 0 || json.Unmarshal(line, &je) != nil || !strings.Contains(je.Key, "-") {
			continue
		}
		out = append(out, je)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Base(f.Name()), err)
	}
	return out, nil
}
