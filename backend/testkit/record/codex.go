package record

// CodexScreens are Codex's two TUI modes: the alternate screen (default) and
// inline (--no-alt-screen).
var CodexScreens = []struct {
	Variant string
	Args    []string
}{
	{"", nil},
	{"-inline", []string{"--no-alt-screen"}},
}

func RecordCodex(r *Run, name string, args []string) error { return nil }
