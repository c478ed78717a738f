package chat

// ActiveRun is the id of the run going on in chat chatID ("" when none):
// a tool approval its bridge asked for names this run.
func (s *Service) ActiveRun(chatID string) string { return s.activeFor(chatID) }
