package usage

import "strings"

// Price is what one million tokens of each kind cost on the API, in USD.
type Price struct {
	Input      float64
	Output     float64
	CacheWrite float64 // 5-minute cache writes
	CacheRead  float64
}

// PriceSource and PriceDate say where the table below comes from. The
// figures are an estimate: Claude Code on a Pro or Max subscription is not
// billed per token, and the table is not updated from the network.
const (
	PriceSource = "https://docs.anthropic.com/en/docs/about-claude/pricing"
	PriceDate   = "2025-11-24"
)

// prices maps a model id prefix to its price, most specific first.
var prices = []struct {
	prefix string
	price  Price
}{
	{"claude-opus-4-5", Price{5, 25, 6.25, 0.50}},
	{"claude-opus-4-1", Price{15, 75, 18.75, 1.50}},
	{"claude-opus-4", Price{15, 75, 18.75, 1.50}},
	{"claude-sonnet-4-5", Price{3, 15, 3.75, 0.30}},
	{"claude-sonnet-4", Price{3, 15, 3.75, 0.30}},
	{"claude-3-7-sonnet", Price{3, 15, 3.75, 0.30}},
	{"claude-3-5-sonnet", Price{3, 15, 3.75, 0.30}},
	{"claude-haiku-4-5", Price{1, 5, 1.25, 0.10}},
	{"claude-3-5-haiku", Price{0.80, 4, 1, 0.08}},
	{"claude-3-opus", Price{15, 75, 18.75, 1.50}},
	{"claude-3-haiku", Price{0.25, 1.25, 0.30, 0.03}},
}

// families price a model newer than the table by its family's newest
// price: closer than no figure, and the whole figure is an estimate.
var families = []struct {
	word  string
	price Price
}{
	{"opus", Price{5, 25, 6.25, 0.50}},
	{"sonnet", Price{3, 15, 3.75, 0.30}},
	{"haiku", Price{1, 5, 1.25, 0.10}},
}

// PriceOf returns the price of a model id and whether it has one.
func PriceOf(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimPrefix(model, "anthropic/"))
	for _, p := range prices {
		if strings.HasPrefix(m, p.prefix) {
			return p.price, true
		}
	}
	for _, f := range families {
		if strings.Contains(m, f.word) {
			return f.price, true
		}
	}
	return Price{}, false
}

// cost is the estimated USD cost of one request's tokens.
func cost(p Price, in, out, cw, cr int64) float64 {
	return (float64(in)*p.Input + float64(out)*p.Output + float64(cw)*p.CacheWrite + float64(cr)*p.CacheRead) / 1e6
}
