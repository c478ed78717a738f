package inventory

import (
	"context"
	"fmt"
)

// conversationRowLimit bounds how much of a session Conversation reads:
// the seed machine's biggest transcript (2 GB) holds about 90,000 rows.
const conversationRowLimit = 200_000

// Conversation returns the newest max messages of the session ref that the
// user typed or the agent answered, oldest first: what "Continue here"
// shows above the continued chat. Tool calls, results, thinking and notes
// are left out. It reads only this session's file, page by page.
func (s *Service) Conversation(ctx context.Context, ref string, max int) ([]Row, error) {
	if max <= 0 {
		return nil, fmt.Errorf("reading the conversation of %s: max must be positive", cleanText(ref, 60))
	}
	var out []Row
	read := 0
	for cursor := int64(0); read < conversationRowLimit; {
		p, err := s.Transcript(ctx, ref, cursor, 2000)
		if err != nil {
			return nil, err
		}
		read += len(p.Rows)
		for _, r := range p.Rows {
			if (r.Kind == RowUser || r.Kind == RowAssistant) && r.Text != "" {
				out = append(out, r)
			}
		}
		if len(out) > 2*max {
			out = append(out[:0], out[len(out)-max:]...)
		}
		if p.Done || p.Next == cursor {
			break
		}
		cursor = p.Next
	}
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out, nil
}
