package main

import (
	"os"

	"github.com/osfoundry/desktop/backend/rulesupdate"
)

// rulesBinding is Settings → Agent detection rules: an installed update is
// applied to the open panes at once, and the Sessions board's notice of
// broken overrides follows what the reload found.
func (a *App) rulesBinding() *rulesupdate.Binding {
	home, _ := os.UserHomeDir()
	return rulesupdate.NewBinding(home, rulesTrustKey(), func() ([]error, error) {
		problems, err := a.watch.Reload(home)
		if err != nil {
			return nil, err
		}
		if a.Board != nil {
			msgs := make([]string, 0, len(problems))
			for _, p := range problems {
				msgs = append(msgs, p.Error())
			}
			a.Board.SetRuleProblems(msgs)
		}
		return problems, nil
	})
}
