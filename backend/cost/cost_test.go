package cost

import "testing"

func TestRule(t *testing.T) {
	cases := []struct {
		name      string
		c         Cost
		label     string
		billed    float64
		estimated bool
	}{
		{"claude reports a figure", OfRun(0.0123), "subscription · ≈$0.01 at API prices", 0, true},
		{"codex reports none", OfRun(0), "subscription", 0, false},
		{"under a cent keeps its digits", OfRun(0.0042), "subscription · ≈$0.0042 at API prices", 0, true},
		{"a job adds its runs' estimates", Sum(OfRun(0.01), OfRun(0), OfRun(0.02)), "subscription · ≈$0.03 at API prices", 0, true},
		{"a job of codex runs has no estimate", Sum(OfRun(0), OfRun(0)), "subscription", 0, false},
		{"an empty job", Sum(), "subscription", 0, false},
		{"a zero value reads as subscription", Cost{}, "subscription", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.c.Label(); got != c.label {
				t.Errorf("Label() = %q, want %q", got, c.label)
			}
			if c.c.BilledUSD != c.billed {
				t.Errorf("billed %v: a subscription run is never billed per token", c.c.BilledUSD)
			}
			if c.c.Estimated != c.estimated {
				t.Errorf("Estimated = %v, want %v", c.c.Estimated, c.estimated)
			}
		})
	}
}

func TestUSD(t *testing.T) {
	for in, want := range map[float64]string{0: "$0.00", 0.5: "$0.50", 12: "$12.00", 0.0042: "$0.0042", 0.000001: "$0.000001"} {
		if got := USD(in); got != want {
			t.Errorf("USD(%v) = %q, want %q", in, got, want)
		}
	}
}
