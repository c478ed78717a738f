package agentcli

import (
	"context"
	"os"
	"testing"
)

func benchDecode(b *testing.B, agent Agent, file string) {
	stream, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		decodeAll(agent, stream)
	}
}

// Decoding the recorded real streams (MB/s is what matters: a run's
// output must never be the bottleneck).
func BenchmarkDecodeClaude(b *testing.B) {
	benchDecode(b, Claude, "testdata/claude-2.1.328.worker.jsonl")
}
func BenchmarkDecodeCodex(b *testing.B) {
	benchDecode(b, Codex, "testdata/codex-0.169.0.worker-worktree.jsonl")
}

// A whole run's overhead around a CLI that answers at once: process group
// start, env scrub, decode, wait, group kill.
func BenchmarkRunOverhead(b *testing.B) {
	r, work := fakeCLI(b, "argv")
	for b.Loop() {
		var evs []Event
		if _, err := r.Run(context.Background(), job(ModelClaudeAgent, work, "x", &evs)); err != nil {
			b.Fatal(err)
		}
	}
}
