package rulesupdate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
)

// manifestName records the installed bundle in the override folder (not a
// .toml file, so the rules loader never reads it).
const manifestName = "installed-bundle.json"

// Installed says which bundle is in the override folder.
type Installed struct {
	Version     string   `json:"version"`
	Expires     string   `json:"expires,omitempty"`
	Digest      string   `json:"digest,omitempty"` // Payload.Digest of the files installed
	Source      string   `json:"source"`           // the address it was fetched from
	Files       []string `json:"files"`
	InstalledAt string   `json:"installedAt"` // RFC 3339
	Folder      string   `json:"folder"`      // the override folder
	// Previous is where the folder as it was before this install is kept
	// ("" when there was none).
	Previous string `json:"previous,omitempty"`
}

// Folder is the override folder under home.
func Folder(home string) string { return filepath.Join(home, detect.OverrideDir) }

// ReadInstalled reads the installed bundle's record; ok is false when no bundle
// was ever installed (the bundled rules, maybe with the person's own files).
func ReadInstalled(home string) (Installed, bool, error) {
	b, err := os.ReadFile(filepath.Join(Folder(home), manifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return Installed{Folder: Folder(home)}, false, nil
	}
	if err != nil {
		return Installed{}, false, fmt.Errorf("reading the installed rules record: %w", err)
	}
	var in Installed
	if err := json.Unmarshal(b, &in); err != nil {
		return Installed{}, false, fmt.Errorf("reading the installed rules record %s: %w", filepath.Join(Folder(home), manifestName), err)
	}
	in.Folder = Folder(home)
	return in, true, nil
}

// Install puts p's files into the override folder in one step: the new
// folder is built beside it (the person's other files copied in, the
// bundle's files over them), then renamed into place. The folder as it was
// is kept beside it as agent-detection.previous, so no file of the
// person's is ever lost. On any error the folder is as it was.
func Install(home string, p Payload, source string, now time.Time) (Installed, error) {
	if err := checkNewer(home, p, now); err != nil {
		return Installed{}, err
	}
	dir := Folder(home)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return Installed{}, fmt.Errorf("making %s: %w", parent, err)
	}
	stage, err := os.MkdirTemp(parent, ".agent-detection-new-")
	if err != nil {
		return Installed{}, fmt.Errorf("preparing the new rules folder: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			os.RemoveAll(stage)
		}
	}()
	if err := copyFolder(dir, stage); err != nil {
		return Installed{}, err
	}
	for _, n := range p.Names() {
		if err := os.WriteFile(filepath.Join(stage, n), []byte(p.Files[n]), 0o644); err != nil {
			return Installed{}, fmt.Errorf("writing %s: %w", n, err)
		}
	}
	in := Installed{Version: p.Version, Expires: p.Expires, Digest: p.Digest(), Source: source, Files: p.Names(), InstalledAt: now.UTC().Format(time.RFC3339), Folder: dir}
	rec, _ := json.MarshalIndent(in, "", "  ")
	if err := os.WriteFile(filepath.Join(stage, manifestName), append(rec, '\n'), 0o644); err != nil {
		return Installed{}, fmt.Errorf("writing the installed rules record: %w", err)
	}

	prev := dir + ".previous"
	hadDir := false
	if _, err := os.Stat(dir); err == nil {
		hadDir = true
		if err := os.RemoveAll(prev); err != nil {
			return Installed{}, fmt.Errorf("clearing the last backup %s: %w", prev, err)
		}
		if err := os.Rename(dir, prev); err != nil {
			return Installed{}, fmt.Errorf("setting the current rules aside: %w", err)
		}
	}
	if err := os.Rename(stage, dir); err != nil {
		if hadDir {
			os.Rename(prev, dir) // put the folder back as it was
		}
		return Installed{}, fmt.Errorf("installing the new rules folder: %w", err)
	}
	committed = true
	if hadDir {
		in.Previous = prev
	}
	return in, nil
}

// checkNewer refuses a bundle that has expired, is older than the one
// installed, or has the installed version with other rules: each is what
// a stale or replayed copy looks like, however valid its signature.
// Installing the same bundle again is allowed.
func checkNewer(home string, p Payload, now time.Time) error {
	if p.Expires != "" {
		exp, err := time.Parse(time.RFC3339, p.Expires)
		if err != nil {
			return fmt.Errorf("the rules bundle's expiry %q is not an RFC 3339 time", p.Expires)
		}
		if now.After(exp) {
			return fmt.Errorf("the rules bundle %s expired on %s: the address serves an old copy; try again later, or ask the publisher for the current bundle", p.Version, exp.UTC().Format("2006-01-02"))
		}
	}
	in, ok, err := ReadInstalled(home)
	if err != nil || !ok {
		return err
	}
	switch c := compareVersions(p.Version, in.Version); {
	case c < 0:
		return fmt.Errorf("the rules bundle %s is older than the installed %s: the address serves an old copy; keep the installed rules or try again later", orZero(p.Version), orZero(in.Version))
	case c == 0 && in.Digest != "" && in.Digest != p.Digest() && strings.TrimSpace(p.Version) != "":
		return fmt.Errorf("the rules bundle %s has other rules than the installed bundle of the same version; a changed bundle must carry a newer version, ask its publisher", p.Version)
	}
	return nil
}

func orZero(v string) string {
	if strings.TrimSpace(v) == "" {
		return "(no version)"
	}
	return v
}

// copyFolder copies the plain files of src (if it exists) into dst.
func copyFolder(src, dst string) error {
	ents, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return fmt.Errorf("copying %s: %w", e.Name(), err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			return fmt.Errorf("copying %s: %w", e.Name(), err)
		}
	}
	return nil
}
