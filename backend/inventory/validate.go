package inventory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/osfoundry/desktop/backend/lazy"
)

// Values from session files are untrusted. These checks decide what may
// reach an argv: an id, model or mode that is option-like ("--foo"), holds
// shell syntax, whitespace, newlines or escape sequences, is refused, so a
// crafted file can never change what runs.
var (
	idPattern     = lazy.Regexp(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)
	modelPattern  = lazy.Regexp(`^[A-Za-z0-9][A-Za-z0-9._:/\[\]-]{0,127}$`)
	optionPattern = lazy.Regexp(`^[a-z][a-zA-Z0-9-]{0,39}$`)
)

func validID(s string) bool    { return idPattern().MatchString(s) }
func validModel(s string) bool { return modelPattern().MatchString(s) }

// validOption accepts a CLI enum value such as "on-request" or "acceptEdits".
func validOption(s string) bool { return optionPattern().MatchString(s) }

// ErrUnsafeValue marks a recorded value that cannot be passed to a CLI.
var ErrUnsafeValue = errors.New("unsafe value")

func checkID(id string) error {
	if !validID(id) {
		return fmt.Errorf("session id %q: %w: ids are letters, digits, '.', '_', ':' and '-' and must not start with '-'", cleanText(id, 60), ErrUnsafeValue)
	}
	return nil
}

// checkFolder refuses a folder that is not an absolute path or that holds
// control characters; the folder is only ever a working directory and an
// argument after "-C", never part of a shell string.
func checkFolder(dir string) error {
	if dir == "" {
		return fmt.Errorf("the session recorded no folder: %w", ErrFolderMissing)
	}
	if !strings.HasPrefix(dir, "/") && !(len(dir) > 2 && dir[1] == ':') {
		return fmt.Errorf("folder %q is not an absolute path: %w", cleanText(dir, 120), ErrUnsafeValue)
	}
	for _, r := range dir {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("folder %q holds control characters: %w", cleanText(dir, 120), ErrUnsafeValue)
		}
	}
	return nil
}
