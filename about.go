package main

// AboutInfo is what Settings shows about this install.
type AboutInfo struct {
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
	LogFile string `json:"logFile"`
	// LogToFile is false when the window was started from a terminal: its
	// output went there instead of LogFile.
	LogToFile bool `json:"logToFile"`
}

// About is bound to the window for the Settings screen.
type About struct{ info AboutInfo }

// Info returns the version, the data folder and the log file.
func (a *About) Info() AboutInfo { return a.info }
