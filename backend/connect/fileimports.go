package connect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/tools"
)

// KindFileImport is the kind propose_file_import queues: text files to
// write into one of the project's Notes (a tab per file) or knowledge
// bases (an article per file) when the owner approves.
const KindFileImport = "file_import"

// Destinations a file import may write into.
const (
	ImportIntoNote          = "note"
	ImportIntoKnowledgeBase = "knowledge_base"
)

// ImportFile is one file of an import: its name (the tab's or article's
// title) and its whole text.
type ImportFile struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// FileImportAsk is where a file_import proposal writes and what.
type FileImportAsk struct {
	Into  string       `json:"into"` // note or knowledge_base
	ID    string       `json:"id"`
	Title string       `json:"title"` // the Note's or knowledge base's title when proposed
	Files []ImportFile `json:"files"`
}

// Imported is one file an approved import wrote: the tab or article it
// became and the version it is at now (the Note's version for a tab).
type Imported struct {
	Name    string `json:"name"`
	ID      string `json:"id"`
	Version int64  `json:"version"`
}

// FileImports writes imports into the notes store (connect/notesres).
type FileImports interface {
	// Destination checks that id is a Note or knowledge base (into) of
	// project and returns its title and, for each of names it already
	// holds (a tab or article of that title), the text it holds now.
	Destination(ctx context.Context, project, into, id string, names []string) (title string, current map[string]string, err error)
	// Import writes each file as a new version: the tab or article of the
	// same title gets the new text, else a new one is made.
	Import(ctx context.Context, project, into, id string, files []ImportFile, author string) ([]Imported, error)
}

// ErrNoDestination means a file import's destination is not a Note or
// knowledge base of the project.
var ErrNoDestination = errors.New("no such Note or knowledge base in this project")

const fileImportSchema = `{"type":"object","properties":{
"project_id":{"type":"string","maxLength":200,"description":"Project the files go into (from list_granted_resources)."},
"into":{"type":"string","enum":["note","knowledge_base"],"description":"note: each file becomes a text tab of the Note; knowledge_base: each file becomes an article."},
"destination_id":{"type":"string","maxLength":200,"description":"The Note's or knowledge base's id (from list_project_resources)."},
"title":{"type":"string","maxLength":200,"description":"One line the owner reads under Needs your approval."},
"files":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{"name":{"type":"string","maxLength":200,"description":"The tab's or article's title; one of the same title gets a new version."},"content":{"type":"string","description":"The file's whole text (Markdown or plain text)."}},"required":["name","content"],"additionalProperties":false},"description":"At most 50 files and 1 MiB of text in all."},
"details":{"type":"string","maxLength":8000,"description":"Why, for the owner."}},
"required":["project_id","into","destination_id","title","files"],"additionalProperties":false}`

// maxImportFiles and maxImportText bound one import.
const (
	maxImportFiles = 50
	maxImportText  = 1 << 20
)

func (s *Service) fileImportTool() *entry {
	return &entry{Tool: tools.Tool{Meta: tools.Meta{Name: "propose_file_import", Scope: tools.ScopeWrite,
		Description: "Propose importing text files into one of the project's Notes (a tab per file) or knowledge bases (an article per file); a tab or article of the same name gets a new version. The owner sees each file beside what it replaces; nothing is written until they approve. get_proposal_status then returns the versions written.",
		InputSchema: json.RawMessage(fileImportSchema)}},
		builtin: s.proposeFileImport, target: projectTarget(true)}
}

func (s *Service) proposeFileImport(ctx context.Context, a *allowed, args json.RawMessage) (tools.Result, error) {
	var in struct {
		ProjectID     string       `json:"project_id"`
		Into          string       `json:"into"`
		DestinationID string       `json:"destination_id"`
		Title         string       `json:"title"`
		Files         []ImportFile `json:"files"`
		Details       string       `json:"details"`
	}
	if err := decodeStrict(args, &in, "propose_file_import", "project_id", "into", "destination_id", "title", "files", "details"); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	in.Title = strings.TrimSpace(in.Title)
	switch {
	case in.Title == "":
		return tools.ErrorResult("title is required"), nil
	case in.Into != ImportIntoNote && in.Into != ImportIntoKnowledgeBase:
		return tools.ErrorResult(`into must be "note" or "knowledge_base"`), nil
	case strings.TrimSpace(in.DestinationID) == "":
		return tools.ErrorResult("destination_id is required: a Note or knowledge base id from list_project_resources"), nil
	case len(in.Files) == 0:
		return tools.ErrorResult("files is empty: give at least one file to import"), nil
	case len(in.Files) > maxImportFiles:
		return tools.ErrorResult(fmt.Sprintf("an import may hold at most %d files; this one has %d: split it", maxImportFiles, len(in.Files))), nil
	}
	if why := proposalFieldProblem(in.ProjectID, in.Title, in.DestinationID, in.Details, nil); why != "" {
		return tools.ErrorResult(why), nil
	}
	names := make([]string, 0, len(in.Files))
	seen := map[string]bool{}
	for _, f := range in.Files {
		name := strings.TrimSpace(f.Name)
		switch {
		case name == "" || utf8.RuneCountInString(name) > 200:
			return tools.ErrorResult("each file needs a name of 1 to 200 characters"), nil
		case !storable(name) || !storable(f.Content):
			return tools.ErrorResult(fmt.Sprintf("file %q must be UTF-8 text without NUL characters", name)), nil
		case seen[name]:
			return tools.ErrorResult(fmt.Sprintf("file %q is listed twice: give each file once", name)), nil
		}
		seen[name] = true
		names = append(names, name)
	}
	total := 0
	for _, f := range in.Files {
		total += len(f.Content)
	}
	if total > maxImportText {
		return tools.ErrorResult(fmt.Sprintf("an import may hold at most 1 MiB of text in all; this one has %.1f MiB: import fewer or smaller files per proposal", float64(total)/(1<<20))), nil
	}
	if s.imports == nil {
		return tools.ErrorResult("this osFoundry cannot import files (no notes store here)"), nil
	}
	title, current, err := s.imports.Destination(ctx, in.ProjectID, in.Into, in.DestinationID, names)
	if errors.Is(err, ErrNoDestination) {
		return tools.ErrorResult(err.Error()), nil
	}
	if err != nil {
		return tools.Result{}, fmt.Errorf("reading the import's destination %s: %w", in.DestinationID, err)
	}
	changes := make([]FileChange, 0, len(in.Files))
	files := make([]ImportFile, 0, len(in.Files))
	for i, f := range in.Files {
		before, ok := current[names[i]]
		changes = append(changes, FileChange{Path: names[i], Before: before, After: f.Content, Added: !ok})
		files = append(files, ImportFile{Name: names[i], Content: f.Content})
	}
	if why := storedProblem(changes, ""); why != "" {
		return tools.ErrorResult(strings.Replace(why, "a change set", "an import with what it replaces", 1)), nil
	}
	p, err := s.addProposal(ctx, Proposal{ConnectionID: a.grant.ConnectionID, Kind: KindFileImport, Project: in.ProjectID,
		Target: title, Title: in.Title, Files: names, Details: in.Details, Changes: changes,
		Import: &FileImportAsk{Into: in.Into, ID: in.DestinationID, Title: title, Files: files}})
	if errors.Is(err, ErrTooManyPending) {
		return tools.ErrorResult(pendingRefusal), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	return tools.JSONResult(map[string]any{"proposal_id": p.ID, "status": p.Status, "files": names,
		"note": "Waiting under Needs your approval; nothing is written until the owner approves."}), nil
}

// applyFileImport writes an approved import. When it cannot (the Note
// was deleted, a file is refused) the proposal stays pending with Problem.
func (s *Service) applyFileImport(ctx context.Context, id, user string) (Proposal, error) {
	s.applying.Lock()
	defer s.applying.Unlock()
	p, err := s.Proposal(ctx, id)
	if err != nil {
		return Proposal{}, err
	}
	if p.Status != ProposalPending {
		return Proposal{}, fmt.Errorf("deciding proposal %q: %w", id, ErrNotPending)
	}
	var done []Imported
	problem := ""
	switch {
	case p.Import == nil:
		problem = "the proposal does not say where the files go; decline it and ask the assistant again"
	case s.imports == nil:
		problem = "this osFoundry cannot import files (no notes store here)"
	default:
		done, err = s.imports.Import(ctx, p.Project, p.Import.Into, p.Import.ID, p.Import.Files, "Connected: "+p.Connection)
		if errors.Is(err, context.Canceled) {
			return Proposal{}, fmt.Errorf("importing proposal %q: %w", id, err)
		}
		if err != nil {
			problem = err.Error()
		}
	}
	if problem != "" {
		if err := s.proposals.SetOutcome(ctx, id, Outcome{Problem: problem}); err != nil {
			return Proposal{}, fmt.Errorf("recording why proposal %q was not imported: %w", id, err)
		}
		return s.Proposal(ctx, id)
	}
	o := Outcome{Imported: done}
	if _, err := s.proposals.DecideIfPending(ctx, id, ProposalApproved, user, time.UnixMilli(s.ms()), &o); err != nil {
		return Proposal{}, fmt.Errorf("recording proposal %q as imported: %w", id, err)
	}
	return s.Proposal(ctx, id)
}
