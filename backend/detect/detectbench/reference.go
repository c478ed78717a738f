package detectbench

import (
	"fmt"
	"time"
)

// Reference is a row of article C's table (seed 7, 30 tasks, 25 prompts,
// 10.6 minutes), printed beside ours. Cells are the reference article's own text.
type Reference struct {
	Median, Max, Misses, Residual, FPWork, FPIdle string
}

// SeedRows maps our detector names to the reference article's measured rows; our own
// detector is shown against the targets instead.
var SeedRows = map[string]Reference{
	"targets":                        {"≤ 0.050 s", "≤ 0.150 s", "0", "≤ 0.150 s", "0", "0"},
	"screen rules, every 50 ms":      {"0.03 s", "0.06 s", "0 / 25", "0 s", "0", "0"},
	"screen rules, 700 ms sweep":     {"0.26 s", "0.70 s", "0 / 25", "0.4 s", "0", "0"},
	"same rules, last 8 KB stripped": {"0.03 s", "0.06 s", "0 / 25", "77.0 s", "0", "0"},
	`screen line ends with "?"`:      {"0.03 s", "0.06 s", "0 / 25", "58.0 s", "0 / 231 s", "4 / 143 s"},
	"output quiet ≥ 0.5s":            {"0.52 s", "0.56 s", "0 / 25", "0 s", "31 / 78 s", "30 / 168 s"},
	"output quiet ≥ 1s":              {"1.02 s", "1.06 s", "0 / 25", "0 s", "28 / 63 s", "30 / 153 s"},
	"output quiet ≥ 2s":              {"2.03 s", "2.06 s", "0 / 25", "0 s", "21 / 38 s", "30 / 123 s"},
	"output quiet ≥ 3s":              {"3.02 s", "3.06 s", "0 / 25", "0 s", "17 / 19 s", "30 / 93 s"},
	"output quiet ≥ 5s":              {"5.02 s", "5.05 s", "9 / 25", "0 s", "3 / 1 s", "18 / 46 s"},
	"output quiet ≥ 8s":              {"–", "–", "25 / 25", "0 s", "0", "6 / 7 s"},
}

// Cells renders a score like the reference article's table.
func (s Score) Cells() []string {
	lat := func(d time.Duration) string {
		if d < 0 {
			return "–"
		}
		return fmt.Sprintf("%.3f s", d.Seconds())
	}
	fp := func(n int, d time.Duration) string {
		if n == 0 && d < 50*time.Millisecond {
			return "0"
		}
		return fmt.Sprintf("%d / %.0f s", n, d.Seconds())
	}
	return []string{
		lat(s.Median()), lat(s.Max()),
		fmt.Sprintf("%d / %d", s.Misses, s.Prompts),
		fmt.Sprintf("%.3f s", s.Residual.Seconds()),
		fp(s.FPWorkN, s.FPWork), fp(s.FPIdleN, s.FPIdle),
	}
}
