package terminal

import (
	"path/filepath"
	"testing"
)

// BenchmarkPaneDrain is the `osfoundry-bench pty` pane side as a Go
// benchmark (for profiling): 8 MB through a real pane.
func BenchmarkPaneDrain(b *testing.B) {
	file := filepath.Join(b.TempDir(), "out.txt")
	if err := WriteSampleOutput(file, 8<<20); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(8 << 20)
	for i := 0; i < b.N; i++ {
		if _, err := PaneDrain(file); err != nil {
			b.Fatal(err)
		}
	}
}
