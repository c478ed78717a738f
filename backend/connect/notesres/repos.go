package notesres

import (
	"context"
	"errors"
	"fmt"

	"github.com/osfoundry/desktop/backend/connect"
	"github.com/osfoundry/desktop/backend/notes"
)

// CodeRepo is the git repository a workspace picked on the Code screen
// among the Local Folders: repo is "" when it picked none, and problem
// says why the picked one cannot be used (no longer a Local Folder, not a
// git repository), else "".
type CodeRepo func(ctx context.Context, workspace string) (repo, problem string, err error)

// Repos ties a project to its git repository: the one the project's
// workspace picked on the Code screen. A project whose workspace picked
// none has no repository, and a change set for it is refused: sending it
// to whichever Local Folder was added last could commit one project's
// change into another project's repository.
func Repos(s *notes.Store, code CodeRepo) connect.RepoFolder {
	places := s.Places
	return func(ctx context.Context, project string) (string, error) {
		p, err := places.GetProject(ctx, project)
		if errors.Is(err, notes.ErrNotFound) {
			return "", fmt.Errorf("%w: project %s does not exist", connect.ErrNoRepository, project)
		}
		if err != nil {
			return "", err
		}
		repo, problem, err := code(ctx, p.Workspace)
		if err != nil {
			return "", fmt.Errorf("reading the repository of project %s: %w", project, err)
		}
		if repo == "" {
			return "", fmt.Errorf("%w: project %q has no git repository; ask the owner to pick one for its workspace on osFoundry's Code screen (among Settings → Local Folders)",
				connect.ErrNoRepository, p.Name)
		}
		if problem != "" {
			return "", fmt.Errorf("%w: the repository of project %q cannot be used: %s", connect.ErrNoRepository, p.Name, problem)
		}
		return repo, nil
	}
}
