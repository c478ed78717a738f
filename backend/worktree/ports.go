package worktree

import "sync"

// PortStep is the gap between two worktrees' port offsets: each gets a
// block of ten ports (a web server, its API, a debugger…).
const PortStep = 10

// Ports hands out port offsets distinct among live worktrees.
type Ports struct {
	mu   sync.Mutex
	used map[int]string // offset → owner
}

// Take gives owner the smallest free offset (PortStep, 2·PortStep, …), or
// the one it already holds.
func (p *Ports) Take(owner string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used == nil {
		p.used = map[int]string{}
	}
	for off, o := range p.used {
		if o == owner {
			return off
		}
	}
	for off := PortStep; ; off += PortStep {
		if _, ok := p.used[off]; !ok {
			p.used[off] = owner
			return off
		}
	}
}

// Hold marks offset as owner's (a restored pane keeps its offset); false
// when another owner holds it.
func (p *Ports) Hold(owner string, offset int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used == nil {
		p.used = map[int]string{}
	}
	if o, ok := p.used[offset]; ok && o != owner {
		return false
	}
	p.used[offset] = owner
	return true
}

// Release frees owner's offset.
func (p *Ports) Release(owner string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for off, o := range p.used {
		if o == owner {
			delete(p.used, off)
		}
	}
}
