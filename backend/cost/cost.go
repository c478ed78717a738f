// Package cost is the app's one rule for what a run costs, used by every
// screen and command that shows a figure (Chat, Orchestration, the Sessions
// board, Pipeline, `osfoundry run`). It only classifies and adds up figures
// the runs recorded; it never reads prices (backend/usage estimates tokens
// at API prices for the Usage screen) and never bills anything.
//
// The rule: every run goes through a CLI's own sign-in (Claude Code on a
// Claude plan, Codex on ChatGPT), which is a subscription, not billed per
// token, so what a run is billed is $0. When the CLI reports a cost figure
// itself (Claude Code's total_cost_usd) that figure is what the same tokens
// would cost at API prices: an estimate, shown as "≈$x at API prices" and
// never as money spent. Codex reports none, so its runs show no estimate.
// Orchestration spend limits count the estimates (they stop a job whose
// runs would have cost that much on the API).
package cost

import (
	"fmt"
	"strconv"
)

// Subscription is the only billing a run has today: the CLI's own sign-in.
const Subscription = "subscription"

// Cost is what one run, or a job of runs, cost.
type Cost struct {
	// Billing says who pays for the tokens: Subscription.
	Billing string `json:"billing"`
	// BilledUSD is what the tokens are billed: 0 on a subscription.
	BilledUSD float64 `json:"billedUsd"`
	// EstimateUSD is the CLI's own figure at API prices, or the sum of its
	// runs' figures; meaningful only when Estimated.
	EstimateUSD float64 `json:"estimateUsd"`
	// Estimated: at least one run's CLI reported a figure.
	Estimated bool `json:"estimated"`
}

// OfRun is the cost of one run given what its CLI reported at API prices
// (0 when it reported nothing, as Codex does).
func OfRun(reportedUSD float64) Cost {
	c := Cost{Billing: Subscription}
	if reportedUSD > 0 {
		c.EstimateUSD, c.Estimated = reportedUSD, true
	}
	return c
}

// Sum adds up runs' costs (a job's children).
func Sum(cs ...Cost) Cost {
	out := Cost{Billing: Subscription}
	for _, c := range cs {
		out.BilledUSD += c.BilledUSD
		if c.Estimated {
			out.EstimateUSD += c.EstimateUSD
			out.Estimated = true
		}
	}
	return out
}

// Label says the cost in the words every screen uses (frontend
// src/lib/cost.ts formats the same way): "subscription" or
// "subscription · ≈$0.01 at API prices".
func (c Cost) Label() string {
	billing := c.Billing
	if billing == "" {
		billing = Subscription
	}
	if !c.Estimated {
		return billing
	}
	return billing + " · ≈" + USD(c.EstimateUSD) + " at API prices"
}

// USD shows dollars as a person reads them: $0.50, $12.00, and under a cent
// with the digits that matter ($0.0042, a limit as typed: $0.000001).
func USD(v float64) string {
	if v >= 0.01 || v == 0 {
		return fmt.Sprintf("$%.2f", v)
	}
	if s := fmt.Sprintf("%.4f", v); s != "0.0000" {
		return "$" + s
	}
	return "$" + strconv.FormatFloat(v, 'f', -1, 64)
}
