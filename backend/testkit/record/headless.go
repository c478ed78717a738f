package record

func RecordClaudeHeadless(r *Run, name string) error { return nil }
func RecordCodexHeadless(r *Run, name string) error { return nil }
