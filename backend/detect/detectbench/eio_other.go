//go:build !unix

package detectbench

func isEIO(error) bool { return false }
