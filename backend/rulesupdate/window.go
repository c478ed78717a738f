package rulesupdate

import "fmt"

// Rules are the running window's detection rules (panestate.Watcher): what
// an install into the override folder applies to.
type Rules interface {
	// WatchRules reloads the rules whenever the override folder under home
	// changes, handing onReload the overrides each reload could not use.
	WatchRules(home string, onReload func(problems []error)) error
	// Reload applies the override folder under home to every pane now and
	// returns the overrides it could not use.
	Reload(home string) ([]error, error)
}

// ForWindow is Settings → Agent detection rules in the window. It also
// follows the override folder under home, so rules the person edits there
// or `osfoundry rules update` installs apply to the open panes at once;
// after every reload, by either way, reloaded gets the overrides it could
// not use (the Sessions board shows them). A folder that cannot be
// followed still gives a working binding, and an error for the log.
func ForWindow(home string, rules Rules, reloaded func(problems []error)) (*Binding, error) {
	var err error
	if home != "" {
		if werr := rules.WatchRules(home, reloaded); werr != nil {
			err = fmt.Errorf("rules edited while the app runs apply at the next start: %w", werr)
		}
	}
	return NewBinding(home, buildKey(), func() ([]error, error) {
		problems, err := rules.Reload(home)
		if err != nil {
			return nil, err
		}
		reloaded(problems)
		return problems, nil
	}), err
}
