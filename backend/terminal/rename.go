package terminal

import (
	"fmt"
	"strings"
	"unicode"
)

// maxNameRunes bounds a pane's name: the rail shows one line of it.
const maxNameRunes = 80

// Name is what the person called the pane ("" until renamed).
func (p *Pane) Name() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

// Rename names a pane: three panes in one folder read alike until the
// person tells them apart. Spaces around it and control characters are
// dropped; "" gives the pane back its folder's name. The name is saved
// with the pane, so a restore keeps it.
func (m *Manager) Rename(id, name string) (Info, error) {
	p, err := m.Get(id)
	if err != nil {
		return Info{}, err
	}
	name = cleanName(name)
	p.mu.Lock()
	p.name = name
	p.mu.Unlock()
	if err := m.save(p); err != nil {
		return Info{}, fmt.Errorf("renaming pane: %w", err)
	}
	m.emit.Emit(EventPanes, nil)
	return infoOf(p), nil
}

func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxNameRunes {
		s = string(r[:maxNameRunes])
	}
	return s
}
