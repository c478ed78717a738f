package cli

import "testing"

// specialFiles: Windows has no FIFO or /dev/zero to name.
func specialFiles(*testing.T, string) []jobFileCase { return nil }
