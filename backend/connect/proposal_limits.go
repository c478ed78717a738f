package connect

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/changeset"
)

// Bounds of what a propose_… call may store. Every pending proposal is
// kept whole until the owner decides, so without them one connection
// stored 74 MB in 20 calls. A title is one line on a card; details are a
// few paragraphs; a change set is what changeset allows, plus the text the
// files have at HEAD, which the card shows beside the new text.
const (
	maxProposalProject  = 200 // characters of project_id
	maxProposalTitle    = 200 // characters
	maxProposalTarget   = 500 // characters
	maxProposalDetails  = 8000
	maxProposalFiles    = changeset.MaxFiles
	maxProposalFileName = changeset.MaxPathSize // bytes of one entry of files
	maxChangeSetStored  = 2 * changeset.MaxBytes
	// MaxPendingProposals is how many proposals of one connection may wait
	// for the owner at once.
	MaxPendingProposals = 20
)

// ErrTooManyPending is returned by addProposal when the connection already
// has MaxPendingProposals waiting; nothing was queued.
var ErrTooManyPending = errors.New("too many proposals waiting")

var pendingRefusal = fmt.Sprintf("this connection already has %d proposals waiting for the owner, the most it may have; nothing was queued: wait until the owner approves or declines some (see get_proposal_status), then propose again", MaxPendingProposals)

// proposalFieldProblem says which field of a proposal is over its limit,
// or "" when none is. files are the names a propose_… call lists.
func proposalFieldProblem(project, title, target, details string, files []string) string {
	for _, f := range []struct {
		name, v string
		max     int
	}{
		{"project_id", project, maxProposalProject},
		{"title", title, maxProposalTitle},
		{"target", target, maxProposalTarget},
		{"details", details, maxProposalDetails},
	} {
		if n := utf8.RuneCountInString(f.v); n > f.max {
			return fmt.Sprintf("%s may be at most %d characters; this one has %d: shorten it", f.name, f.max, n)
		}
	}
	for _, f := range []struct{ name, v string }{{"project_id", project}, {"title", title}, {"target", target}, {"details", details}} {
		if !storable(f.v) {
			return f.name + " must be UTF-8 text without NUL characters: remove them"
		}
	}
	if len(files) > maxProposalFiles {
		return fmt.Sprintf("a proposal may list at most %d files; this one lists %d: split it into smaller proposals", maxProposalFiles, len(files))
	}
	for _, f := range files {
		if len(f) > maxProposalFileName {
			return fmt.Sprintf("a file name may be at most %d bytes; %.40q… has %d", maxProposalFileName, f, len(f))
		}
	}
	return ""
}

// storable reports whether s is text both engines keep as it is: SQLite
// would store a NUL character or invalid UTF-8, PostgreSQL refuses them,
// so a proposal holding them is refused on both. (File text is kept as
// JSON, where both are escaped, so it may hold anything.)
func storable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// storedProblem says when a change set with the files' text at HEAD
// (before) is more than a proposal may store, or "".
func storedProblem(changes []FileChange, patch string) string {
	n := len(patch)
	for _, c := range changes {
		n += len(c.Before) + len(c.After)
	}
	if n > maxChangeSetStored {
		return fmt.Sprintf("a change set may hold at most %d MiB in all, counting the files' current text the owner compares it with; this one has %.1f MiB: change fewer or smaller files per proposal",
			maxChangeSetStored>>20, float64(n)/(1<<20))
	}
	return ""
}
