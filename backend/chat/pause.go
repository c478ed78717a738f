package chat

// Pause freezes a running run: id is a run id or a chat id (its run in
// progress). The run's whole process group stops (nothing it started keeps
// working) and its time limit holds until Resume. The card moves to Paused,
// from where it can be resumed or ended.
func (s *Service) Pause(id string) error { return s.eng.Pause(id) }

// Resume continues a paused run (a run id or a chat id). Resuming a run
// that is not paused does nothing.
func (s *Service) Resume(id string) error { return s.eng.Resume(id) }

// paused reports whether the run in progress runID is frozen.
func (s *Service) paused(runID string) bool { return s.eng.Paused(runID) }
