package detect

import (
	"strings"
	"testing"

	"github.com/osfoundry/desktop/rules"
)

// A full 120x32 Claude Code screen while working: what every spinner frame
// costs to evaluate.
func workingScreen() []string {
	lines := make([]string, 32)
	for i := range lines {
		lines[i] = strings.Repeat("lorem ipsum dolor sit amet ", 4)
	}
	lines[28] = "✻ Frolicking… (12s · esc to interrupt)"
	lines[30] = "> "
	lines[31] = "  ? for shortcuts"
	return lines
}

func BenchmarkEvaluateWorking(b *testing.B) {
	reg, _, _ := Load(rules.Files, "")
	rs := reg.Get("claude")
	lines := workingScreen()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rs.Evaluate(lines)
	}
}
