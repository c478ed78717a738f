package inventory

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
)

// Another app's SQLite store that is in WAL mode keeps its newest commits
// in <db>-wal until it checkpoints (OpenCode 1.18 and Codex 0.169 both
// leave whole sessions there while they run). immutable=1 never sees them,
// and opening the log in place would take locks and write a -shm file next
// to the app's files. So the database and its log are copied into a
// private folder, the copy is checkpointed into one file, and that
// snapshot is what the index opens (immutable). A snapshot is reused until
// the pair's identity changes.

// snapshotMax bounds the stores copied: past it, the database is read as
// it is on disk (without the log), which costs nothing per change.
const snapshotMax = 64 << 20

// walUnit is the identity of a SQLite store: the database file and its log
// together, so a commit that only reached the log still re-reads the store.
func walUnit(u Unit) Unit {
	if st, err := os.Stat(u.Path + "-wal"); err == nil && st.Mode().IsRegular() && st.Size() > 0 {
		u.Size += st.Size()
		u.MtimeNs = max(u.MtimeNs, st.ModTime().UnixNano())
	}
	return u
}

type snapshotEntry struct {
	ident string
	path  string
}

type snapshotCache struct {
	mu      sync.Mutex
	dir     string
	n       int
	entries map[string]snapshotEntry
}

var snapshots = &snapshotCache{entries: map[string]snapshotEntry{}}

// openStore opens another app's SQLite database for reading: in place with
// immutable=1 when nothing waits in its log, else a snapshot with the log
// applied.
func openStore(path string) (*sql.DB, error) {
	p, err := snapshots.get(path)
	if err != nil {
		return nil, err
	}
	return openImmutable(p)
}

// get returns the file to open for path: path itself, or its snapshot.
func (c *snapshotCache) get(path string) (string, error) {
	db, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	wal, err := os.Stat(path + "-wal")
	if err != nil || !wal.Mode().IsRegular() || wal.Size() == 0 || db.Size()+wal.Size() > snapshotMax {
		return path, nil
	}
	ident := fmt.Sprint(db.Size(), db.ModTime().UnixNano(), wal.Size(), wal.ModTime().UnixNano())
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[path]; ok && e.ident == ident {
		if _, err := os.Stat(e.path); err == nil {
			return e.path, nil
		}
	}
	if c.dir == "" {
		if c.dir, err = os.MkdirTemp("", "osfoundry-snapshots-"); err != nil {
			return "", fmt.Errorf("making a folder for store snapshots: %w", err)
		}
	}
	sum := sha256.Sum256([]byte(path))
	c.n++
	dst := filepath.Join(c.dir, fmt.Sprintf("%s-%d.db", hex.EncodeToString(sum[:8]), c.n))
	if err := snapshot(path, dst); err != nil {
		os.Remove(dst)
		os.Remove(dst + "-wal")
		return path, nil // read what is on disk; the log waits for the app's checkpoint
	}
	if old, ok := c.entries[path]; ok {
		os.Remove(old.path) // a reader may still hold it open: Unix keeps it until closed
	}
	c.entries[path] = snapshotEntry{ident: ident, path: dst}
	return dst, nil
}

// snapshot copies src and its log to dst and folds the log into dst. The
// log is copied first and checked again afterwards: if the app appended in
// between, the copy is retried, so the pair is one consistent moment.
func snapshot(src, dst string) error {
	for try := 0; try < 3; try++ {
		before, err := os.Stat(src + "-wal")
		if err != nil {
			return err
		}
		if err := copyFile(src+"-wal", dst+"-wal"); err != nil {
			return err
		}
		if err := copyFile(src, dst); err != nil {
			return err
		}
		after, err := os.Stat(src + "-wal")
		if err != nil || after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
			continue
		}
		return fold(dst)
	}
	return fmt.Errorf("snapshot of %s: the store kept changing while it was copied", src)
}

// fold applies the copied log to the copy and leaves one self-contained
// file (journal_mode=DELETE removes the copy's -wal and -shm).
func fold(dst string) error {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dst)}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("applying the log to the snapshot: %w", err)
	}
	if _, err := db.Exec(`PRAGMA journal_mode=DELETE`); err != nil {
		return fmt.Errorf("applying the log to the snapshot: %w", err)
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// clearSnapshots removes the snapshot folder (Service.Close).
func clearSnapshots() {
	snapshots.mu.Lock()
	defer snapshots.mu.Unlock()
	if snapshots.dir != "" {
		os.RemoveAll(snapshots.dir)
	}
	snapshots.dir = ""
	snapshots.entries = map[string]snapshotEntry{}
}
