package main

import (
	"fmt"
	"os"

	"github.com/osfoundry/desktop/backend/rulesupdate"
)

// rulesBinding is Settings → Agent detection rules. It also starts
// following the override folder, so rules the person edits there or
// `osfoundry rules update` installs apply to the open panes at once; the
// Sessions board's notice of broken overrides follows each reload.
func (a *App) rulesBinding() *rulesupdate.Binding {
	home, _ := os.UserHomeDir()
	if home != "" {
		if err := a.watch.WatchRules(home, a.rulesReloaded); err != nil {
			fmt.Fprintln(os.Stderr, "osfoundry: rules edited while the app runs apply at the next start:", err)
		}
	}
	return rulesupdate.NewBinding(home, rulesTrustKey(), func() ([]error, error) {
		problems, err := a.watch.Reload(home)
		if err != nil {
			return nil, err
		}
		a.rulesReloaded(problems)
		return problems, nil
	})
}

func (a *App) rulesReloaded(problems []error) {
	if a.Board == nil {
		return
	}
	msgs := make([]string, 0, len(problems))
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "osfoundry:", p)
		msgs = append(msgs, p.Error())
	}
	a.Board.SetRuleProblems(msgs)
}
