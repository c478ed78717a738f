package main

import (
	"os"
	"time"
)

// maxRSSMiB: Windows reports no peak working set through os.ProcessState.
func maxRSSMiB(*os.ProcessState) float64 { return 0 }

// selfCPU: not measured on Windows.
func selfCPU() time.Duration { return 0 }
