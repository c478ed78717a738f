package cli

import "os"

// maxRSSMiB: Windows reports no peak working set through os.ProcessState.
func maxRSSMiB(*os.ProcessState) float64 { return 0 }
