package usage

import (
	"bytes"
	"encoding/json"
	"time"
)

// codexEntry is the tokens one Codex turn added.
type codexEntry struct {
	at     int64 // epoch ms
	tokens int64
}

// Limit is one rate-limit window as Codex last recorded it.
type Limit struct {
	UsedPercent   float64 `json:"usedPercent"`
	WindowMinutes int64   `json:"windowMinutes"`
	// ResetsAt is when the window resets (epoch ms); 0 when not recorded.
	ResetsAt int64 `json:"resetsAt"`
}

// codexLimits is the rate_limits of one token_count event.
type codexLimits struct {
	at        int64
	primary   *Limit
	secondary *Limit
	plan      string
}

type codexWindow struct {
	UsedPercent float64 `json:"used_percent"`
	Window      *int64  `json:"window_minutes"`
	// resets_at (epoch seconds) in current Codex; resets_in_seconds
	// (relative to the event) in versions before it.
	ResetsAt        *int64 `json:"resets_at"`
	ResetsInSeconds *int64 `json:"resets_in_seconds"`
}

type codexRecord struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   struct {
		Type string `json:"type"`
		Info *struct {
			Total struct {
				Total int64 `json:"total_tokens"`
			} `json:"total_token_usage"`
		} `json:"info"`
		RateLimits *struct {
			Primary   *codexWindow `json:"primary"`
			Secondary *codexWindow `json:"secondary"`
			PlanType  *string      `json:"plan_type"`
		} `json:"rate_limits"`
	} `json:"payload"`
}

var markTokenCount = []byte(`"token_count"`)

// parseCodex reads one rollout line: a token_count event's running total
// of the session's tokens and, when the server sent them, its rate limits.
func parseCodex(line []byte) (at, total int64, hasTotal bool, lim *codexLimits, ok, corrupt bool) {
	if !bytes.Contains(line, markTokenCount) {
		return 0, 0, false, nil, false, false
	}
	var r codexRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return 0, 0, false, nil, false, true
	}
	if r.Type != "event_msg" || r.Payload.Type != "token_count" {
		return 0, 0, false, nil, false, false
	}
	t, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		return 0, 0, false, nil, false, true
	}
	at = t.UnixMilli()
	if r.Payload.Info != nil {
		total, hasTotal = r.Payload.Info.Total.Total, true
	}
	if rl := r.Payload.RateLimits; rl != nil && (rl.Primary != nil || rl.Secondary != nil) {
		lim = &codexLimits{at: at, primary: rl.Primary.limit(at), secondary: rl.Secondary.limit(at)}
		if rl.PlanType != nil {
			lim.plan = *rl.PlanType
		}
	}
	return at, total, hasTotal, lim, true, false
}

func (w *codexWindow) limit(at int64) *Limit {
	if w == nil {
		return nil
	}
	l := &Limit{UsedPercent: w.UsedPercent}
	if w.Window != nil {
		l.WindowMinutes = *w.Window
	}
	switch {
	case w.ResetsAt != nil:
		l.ResetsAt = *w.ResetsAt * 1000
	case w.ResetsInSeconds != nil:
		l.ResetsAt = at + *w.ResetsInSeconds*1000
	}
	return l
}
