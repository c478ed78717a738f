package detect

import (
	"errors"
	"fmt"
)

// ErrNeedsDecision: runtime_send refused because the pane waits for the
// user's decision; answers go through runtime_answer, confirmed by the user.
var ErrNeedsDecision = errors.New("the pane is waiting for a decision")

// ErrNothingToAnswer: runtime_answer refused because no prompt is showing.
var ErrNothingToAnswer = errors.New("the pane is not waiting for a decision")

// CheckSend is the runtime_send guard on a decision taken at the moment of
// typing (never the last sweep's): refused when the pane is blocked, so a
// prompt that just appeared cannot swallow keystrokes meant as text.
func CheckSend(d Decision) error {
	if d.State == Blocked {
		return fmt.Errorf("runtime_send refused: %w (%s); answer it with runtime_answer, which the user confirms", ErrNeedsDecision, d)
	}
	return nil
}

// CheckAnswer is the runtime_answer guard: only a blocked pane takes answers.
func CheckAnswer(d Decision) error {
	if d.State != Blocked {
		return fmt.Errorf("runtime_answer refused: %w (it is %s: %s); use runtime_send to type into it", ErrNothingToAnswer, d.State, d)
	}
	return nil
}

// CheckSend re-reads lines (the screen as it is now) with rs's rules.
func (rs *RuleSet) CheckSend(lines []string) error { return CheckSend(rs.Evaluate(lines)) }

// CheckAnswer re-reads lines with rs's rules.
func (rs *RuleSet) CheckAnswer(lines []string) error { return CheckAnswer(rs.Evaluate(lines)) }

// CheckSend re-reads the pane's screen and signals now.
func (t *Tracker) CheckSend() error { return CheckSend(t.Evaluate()) }

// CheckAnswer re-reads the pane's screen and signals now.
func (t *Tracker) CheckAnswer() error { return CheckAnswer(t.Evaluate()) }
