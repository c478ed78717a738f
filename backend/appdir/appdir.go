// Package appdir resolves where the app keeps its data: the OS config
// folder's osfoundry/ subfolder, or OSFOUNDRY_HOME when set (tests use it).
package appdir

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvHome overrides the data folder.
const EnvHome = "OSFOUNDRY_HOME"

// Dir returns the app data folder, creating it with owner-only permissions.
func Dir() (string, error) {
	dir := os.Getenv(EnvHome)
	if dir == "" {
		cfg, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("finding the config folder: %w (set %s to choose one)", err, EnvHome)
		}
		dir = filepath.Join(cfg, "osfoundry")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating app data folder %s: %w", dir, err)
	}
	return dir, nil
}

// Knowledge returns the knowledge folder (Markdown files searched by
// memory_search, including Sessions board Done summaries).
func Knowledge(dir string) string { return filepath.Join(dir, "knowledge") }
