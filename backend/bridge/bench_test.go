package bridge

import (
	"strings"
	"testing"
)

// Go benchmarks of the per-request paths (osfoundry-bench bridge prints
// the full table with percentiles).
func BenchmarkRequests(b *testing.B) {
	r := newRig(b)
	br := r.start(b, "memory_search")
	host := hostOf(br)
	good := "Bearer " + br.Token()
	for _, c := range []struct {
		name, auth, body string
		status           int
		want             string
	}{
		{"initialize", good, initBody, 200, "protocolVersion"},
		{"notification", good, notifyBody, 202, ""},
		{"list", good, listBody, 200, "memory_search"},
		{"allowed", good, memBody, 200, "Release checklist"},
		{"refused", good, secretBody, 200, "-32601"},
		{"401", "Bearer " + strings.Repeat("0", 64), listBody, 401, "Unauthorized"},
	} {
		req := newRaw(host, c.auth, c.body, c.status, c.want)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := req.do(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
