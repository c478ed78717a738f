package orchestrate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/osfoundry/desktop/backend/runs"
)

// Owners of the jobs a person starts: in the window, and with `osfoundry
// run --fleet|--loop|--graph`.
const (
	OwnerWindow = "person:window"
	OwnerCLI    = "person:cli"
)

// A person's jobs may be larger than a tool's (a person watches them and
// set their limits); every run still waits for one of MaxActive slots.
const (
	MaxPersonFleet = 12
	MaxPersonLoop  = 20
)

// ChildSpec is one task of a fleet a person starts.
type ChildSpec struct {
	Role   string `json:"role"`
	Model  string `json:"model,omitempty"`
	Task   string `json:"prompt"` // the screen and job files call it prompt
	Folder string `json:"folder,omitempty"`
}

// FleetRequest is a fleet a person starts: its tasks run in parallel.
type FleetRequest struct {
	Title  string      `json:"title,omitempty"`
	Tasks  []ChildSpec `json:"tasks"`
	Limits Limits      `json:"limits"`
}

// LoopRequest is a loop a person starts: one task again and again, each
// iteration given the last result, until the condition holds (Until) or
// Count iterations ran; never more than MaxIterations.
type LoopRequest struct {
	Title         string `json:"title,omitempty"`
	Role          string `json:"role"`
	Model         string `json:"model,omitempty"`
	Task          string `json:"prompt"`
	Folder        string `json:"folder,omitempty"`
	Until         string `json:"until,omitempty"`
	Count         int    `json:"count,omitempty"`
	MaxIterations int    `json:"maxIterations,omitempty"`
	Limits        Limits `json:"limits"`
}

// GraphRequest is a graph a person starts: steps with ids and depends_on.
type GraphRequest struct {
	Title string `json:"title,omitempty"`
	// Task is the graph's goal, given to every step before its own prompt.
	Task   string    `json:"task,omitempty"`
	Steps  []DAGStep `json:"steps"`
	Limits Limits    `json:"limits"`
}

// ErrNoStop refuses a loop that would only end at its iteration cap.
var ErrNoStop = errors.New("a loop needs a stop condition: give it until (a condition in words) or count (how many iterations)")

// Person starts and follows the jobs of one person (the window's binding
// and the command line): it checks what a person may ask, then runs it on
// the Manager. Every run is watched (a tool that needs approval asks) and
// one deep, so a child cannot start jobs of its own.
type Person struct {
	m     *Manager
	owner string
}

// ForPerson returns the person API of m for owner (OwnerWindow, OwnerCLI).
func (m *Manager) ForPerson(owner string) *Person { return &Person{m: m, owner: owner} }

func (p *Person) origin(folder string) runs.Origin {
	return runs.Origin{Depth: runs.MaxDepth, Folder: folder}
}

// Upper bounds of a person's limits. Past them a number is a typo, and a
// maxSeconds past 2^63 ns (292 years) would overflow time.Duration into a
// negative limit that stops the job at once.
const (
	MaxJobSeconds  = 7 * 24 * 60 * 60
	MaxConcurrency = 64
	MaxSpendUSD    = 100_000
)

func checkLimits(l Limits) error {
	switch {
	case l.MaxSeconds < 0 || l.MaxSeconds > MaxJobSeconds:
		return fmt.Errorf("maxSeconds must be 0 (no limit) or between 1 and %d (7 days); got %d", MaxJobSeconds, l.MaxSeconds)
	case math.IsNaN(l.MaxSpendUSD) || l.MaxSpendUSD < 0 || l.MaxSpendUSD > MaxSpendUSD:
		return fmt.Errorf("maxSpendUSD must be 0 (no limit) or a number of dollars up to %d; got %v", MaxSpendUSD, l.MaxSpendUSD)
	case l.Concurrency < 0 || l.Concurrency > MaxConcurrency:
		return fmt.Errorf("concurrency must be 0 (all at once) or between 1 and %d; got %d", MaxConcurrency, l.Concurrency)
	}
	return nil
}

// StartFleet starts a fleet and returns its status at once.
func (p *Person) StartFleet(ctx context.Context, r FleetRequest) (Status, error) {
	if err := checkLimits(r.Limits); err != nil {
		return Status{}, err
	}
	f := Fleet{Concurrency: r.Limits.Concurrency, MaxTasks: MaxPersonFleet, Title: r.Title, Limits: r.Limits}
	for _, t := range r.Tasks {
		f.Tasks = append(f.Tasks, FleetTask{Role: t.Role, Task: t.Task, Model: t.Model, Folder: t.Folder})
	}
	if f.Title == "" {
		f.Title = fmt.Sprintf("Team of %d", len(r.Tasks))
	}
	return p.m.StartFleet(ctx, p.owner, f, p.origin(""), nil)
}

// StartLoop starts a loop and returns its status at once. A loop without
// a stop condition (until or count) is refused.
func (p *Person) StartLoop(ctx context.Context, r LoopRequest) (Status, error) {
	if err := checkLimits(r.Limits); err != nil {
		return Status{}, err
	}
	if strings.TrimSpace(r.Until) == "" && r.Count <= 0 {
		return Status{}, ErrNoStop
	}
	if r.Count > MaxPersonLoop || r.MaxIterations > MaxPersonLoop {
		return Status{}, fmt.Errorf("a loop runs at most %d iterations (asked for %d): split the work into several loops", MaxPersonLoop, max(r.Count, r.MaxIterations))
	}
	if r.MaxIterations == 0 {
		r.MaxIterations = max(r.Count, 5)
	}
	title := r.Title
	if title == "" {
		title = "Loop · " + firstWords(r.Task, 6)
	}
	return p.m.StartLoop(ctx, p.owner, Loop{Role: r.Role, Task: r.Task, Model: r.Model, Until: r.Until, Count: r.Count,
		Max: r.MaxIterations, Cap: MaxPersonLoop, Title: title, Limits: r.Limits}, p.origin(r.Folder), nil)
}

// StartGraph starts a graph of steps with dependencies and returns its
// status at once; a cycle, an unknown dependency, role or model is refused
// before anything starts.
func (p *Person) StartGraph(ctx context.Context, r GraphRequest) (Status, error) {
	if err := checkLimits(r.Limits); err != nil {
		return Status{}, err
	}
	title := r.Title
	if title == "" {
		title = fmt.Sprintf("Graph of %d steps", len(r.Steps))
	}
	if task := strings.TrimSpace(r.Task); task != "" {
		steps := make([]DAGStep, len(r.Steps))
		for i, s := range r.Steps {
			steps[i] = s
			if strings.TrimSpace(s.Task) != "" {
				steps[i].Task = task + "\n\nYour part: " + s.Task
			}
		}
		r.Steps = steps
	}
	return p.m.StartDAG(ctx, p.owner, DAG{Title: title, Steps: r.Steps, Limits: r.Limits}, p.origin(""))
}

// The person at the window reads and cancels every job on their machine
// (a Worker's fleet too); a command-line person only their own.
func (p *Person) ownerOf(jobID string) (string, error) {
	if p.owner != OwnerWindow {
		return p.owner, nil
	}
	return p.m.ownerOf(jobID)
}

// List returns the person's jobs, newest first (the window's: every job).
func (p *Person) List() ([]Status, error) {
	if p.owner == OwnerWindow {
		return p.m.AllJobs()
	}
	return p.m.List(p.owner)
}

// Get returns one job with each child's live state.
func (p *Person) Get(jobID string) (Status, error) {
	owner, err := p.ownerOf(jobID)
	if err != nil {
		return Status{}, err
	}
	return p.m.Get(owner, jobID)
}

// Wait waits until the job ended or ctx is done.
func (p *Person) Wait(ctx context.Context, jobID string) (Status, error) {
	owner, err := p.ownerOf(jobID)
	if err != nil {
		return Status{}, err
	}
	return p.m.Wait(ctx, owner, jobID)
}

// CancelChild stops one child; its siblings go on.
func (p *Person) CancelChild(jobID, childID string) (Status, error) {
	if p.owner == OwnerWindow && p.m.runsElsewhere(jobID) {
		return Status{}, fmt.Errorf("job %s runs in `osfoundry run` in a terminal: cancel the whole job here, or stop it there", jobID)
	}
	owner, err := p.ownerOf(jobID)
	if err != nil {
		return Status{}, err
	}
	return p.m.CancelChild(owner, jobID, childID)
}

// CancelJob stops the whole job (at the window: whoever runs it).
func (p *Person) CancelJob(jobID string) (Status, error) {
	if p.owner == OwnerWindow {
		return p.m.CancelAny(jobID)
	}
	owner, err := p.ownerOf(jobID)
	if err != nil {
		return Status{}, err
	}
	return p.m.Cancel(owner, jobID)
}

// OrchestrateBinding is the window's Orchestration screen
// (window.go.orchestrate.OrchestrateBinding).
type OrchestrateBinding struct {
	p   *Person
	ctx context.Context
}

// NewBinding binds m's jobs of the person at the window.
func NewBinding(m *Manager) *OrchestrateBinding {
	return &OrchestrateBinding{p: m.ForPerson(OwnerWindow), ctx: context.Background()}
}

// StartFleet starts tasks in parallel on their roles and models.
func (b *OrchestrateBinding) StartFleet(r FleetRequest) (Status, error) {
	return b.p.StartFleet(b.ctx, r)
}

// StartLoop repeats a task until its condition holds or count iterations ran.
func (b *OrchestrateBinding) StartLoop(r LoopRequest) (Status, error) { return b.p.StartLoop(b.ctx, r) }

// StartGraph runs steps in the order their dependencies allow.
func (b *OrchestrateBinding) StartGraph(r GraphRequest) (Status, error) {
	return b.p.StartGraph(b.ctx, r)
}

// List lists the window's jobs, newest first.
func (b *OrchestrateBinding) List() ([]Status, error) { return b.p.List() }

// Get reads one job.
func (b *OrchestrateBinding) Get(jobID string) (Status, error) { return b.p.Get(jobID) }

// CancelChild stops one child of a job.
func (b *OrchestrateBinding) CancelChild(jobID, childID string) (Status, error) {
	return b.p.CancelChild(jobID, childID)
}

// CancelJob stops a job and every child still going.
func (b *OrchestrateBinding) CancelJob(jobID string) (Status, error) { return b.p.CancelJob(jobID) }
