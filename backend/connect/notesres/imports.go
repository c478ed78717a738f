package notesres

import (
	"context"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/notes"
)

// Imports writes approved file imports into the notes store: a Note gets
// a text tab per file, a knowledge base an article per file; a tab or
// article of the same title gets the file's text as its new version.
func Imports(s *notes.Store) connect.FileImports { return imports{s: s} }

type imports struct{ s *notes.Store }

var _ connect.FileImports = imports{}

func (im imports) note(ctx context.Context, project, id string) (notes.Note, error) {
	n, err := im.s.Notes.GetNote(ctx, id)
	if errors.Is(err, notes.ErrNotFound) || err == nil && n.Project != project {
		return notes.Note{}, fmt.Errorf("%w: %s is not a Note of project %s; pick one from list_project_resources", connect.ErrNoDestination, id, project)
	}
	if err != nil {
		return notes.Note{}, fmt.Errorf("reading note %s: %w", id, err)
	}
	return n, nil
}

func (im imports) base(ctx context.Context, project, id string) (notes.KnowledgeBase, map[string]notes.Article, error) {
	kb, err := im.s.Knowledge.KnowledgeBase(ctx, id)
	if errors.Is(err, notes.ErrNotFound) || err == nil && kb.Project != project {
		return kb, nil, fmt.Errorf("%w: %s is not a knowledge base of project %s; pick one from list_project_resources", connect.ErrNoDestination, id, project)
	}
	if err != nil {
		return kb, nil, fmt.Errorf("reading knowledge base %s: %w", id, err)
	}
	arts, err := im.s.Knowledge.ListArticles(ctx, id)
	if err != nil {
		return kb, nil, fmt.Errorf("listing the articles of %s: %w", kb.Name, err)
	}
	byTitle := map[string]notes.Article{}
	for _, a := range arts {
		if _, dup := byTitle[a.Title]; !dup {
			byTitle[a.Title] = a.Article
		}
	}
	return kb, byTitle, nil
}

// textTabs are a Note's text tabs by title (the first of a title).
func textTabs(n notes.Note) map[string]notes.Tab {
	out := map[string]notes.Tab{}
	for _, t := range n.Tabs {
		if _, dup := out[t.Title]; !dup && t.Kind == notes.KindText {
			out[t.Title] = t
		}
	}
	return out
}

func (im imports) Destination(ctx context.Context, project, into, id string, names []string) (string, map[string]string, error) {
	current := map[string]string{}
	switch into {
	case connect.ImportIntoNote:
		n, err := im.note(ctx, project, id)
		if err != nil {
			return "", nil, err
		}
		tabs := textTabs(n)
		for _, name := range names {
			if t, ok := tabs[name]; ok && t.Text != nil {
				current[name] = *t.Text
			}
		}
		return n.Title, current, nil
	case connect.ImportIntoKnowledgeBase:
		kb, arts, err := im.base(ctx, project, id)
		if err != nil {
			return "", nil, err
		}
		for _, name := range names {
			if a, ok := arts[name]; ok {
				doc, err := im.s.Knowledge.GetArticle(ctx, id, a.ID)
				if err != nil {
					return "", nil, fmt.Errorf("reading article %q: %w", name, err)
				}
				current[name] = doc.Body
			}
		}
		return kb.Name, current, nil
	}
	return "", nil, fmt.Errorf("%w: into must be note or knowledge_base", connect.ErrNoDestination)
}

func (im imports) Import(ctx context.Context, project, into, id string, files []connect.ImportFile, author string) ([]connect.Imported, error) {
	switch into {
	case connect.ImportIntoNote:
		return im.intoNote(ctx, project, id, files)
	case connect.ImportIntoKnowledgeBase:
		_, arts, err := im.base(ctx, project, id)
		if err != nil {
			return nil, err
		}
		out := make([]connect.Imported, 0, len(files))
		for _, f := range files {
			doc, err := im.s.Knowledge.PutArticleAs(ctx, id, arts[f.Name].ID, f.Name, f.Content, author)
			if err != nil {
				return out, fmt.Errorf("writing article %q (%d of %d files were written): %w", f.Name, len(out), len(files), err)
			}
			out = append(out, connect.Imported{Name: f.Name, ID: doc.ID, Version: doc.Version})
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: into must be note or knowledge_base", connect.ErrNoDestination)
}

// intoNote writes each file as a text tab, each write conditional on the
// Note's version the one before left (the person editing it at the same
// moment makes the import stop with what it wrote, never overwrite).
func (im imports) intoNote(ctx context.Context, project, id string, files []connect.ImportFile) ([]connect.Imported, error) {
	n, err := im.note(ctx, project, id)
	if err != nil {
		return nil, err
	}
	tabs, version := textTabs(n), n.Version
	out := make([]connect.Imported, 0, len(files))
	for _, f := range files {
		t, ok := tabs[f.Name]
		tabID := t.ID
		if !ok {
			res, info, err := im.s.Notes.AddTabAsPerson(ctx, id, version, notes.KindText, f.Name)
			if err == nil && !res.Saved {
				err = errors.New("the Note changed while importing")
			}
			if err != nil {
				return out, fmt.Errorf("adding tab %q to %s (%d of %d files were written): %w", f.Name, n.Title, len(out), len(files), err)
			}
			tabID, version = info.ID, res.Version
		}
		res, err := im.s.Notes.SaveTabAsPerson(ctx, id, tabID, version, f.Content)
		if err == nil && !res.Saved {
			err = errors.New("the Note changed while importing")
		}
		if err != nil {
			return out, fmt.Errorf("writing tab %q of %s (%d of %d files were written): %w", f.Name, n.Title, len(out), len(files), err)
		}
		version = res.Version
		out = append(out, connect.Imported{Name: f.Name, ID: tabID, Version: version})
	}
	return out, nil
}
