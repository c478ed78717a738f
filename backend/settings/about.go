package settings

// AboutInfo is what Settings shows about this install.
type AboutInfo struct {
	Version string `json:"version"`
	DataDir string `json:"dataDir"`
	LogFile string `json:"logFile"`
	// LogToFile is false when the window was started from a terminal: its
	// output went there instead of LogFile.
	LogToFile bool `json:"logToFile"`
}

// About is the Settings screen's "About this install" API. The window
// fills it in before it opens: the log's place is only known once the log
// was (or failed to be) redirected.
type About struct{ info AboutInfo }

// NewAbout binds info.
func NewAbout(info AboutInfo) *About { return &About{info: info} }

// Info returns the version, the data folder and the log file.
func (a *About) Info() AboutInfo { return a.info }
