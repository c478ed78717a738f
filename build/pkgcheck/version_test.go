package pkgcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"howett.net/plist"
)

// numericVersions: the semver from build/scripts/version.sh and the
// a.b.c.d both packaging scripts must derive from it (Windows fixed version
// fields, CFBundleVersion).
var numericVersions = []struct {
	name, version, numeric string
}{
	{"untagged dev build", "0.1.0-dev.230+g74350e0", "0.1.0.230"},
	{"release", "1.2.3", "1.2.3.0"},
	{"commits after a tag", "1.2.3-4-gabcdef0", "1.2.3.4"},
	{"dirty tree after a tag", "1.2.3-4-gabcdef0-dirty", "1.2.3.4"},
	{"dirty release", "1.2.3-dirty", "1.2.3.0"},
	{"prerelease tag", "2.0.0-rc.1", "2.0.0.0"},
	{"leading zeros", "01.02.03-dev.007+g1", "1.2.3.7"},
}

func fillWinres(t *testing.T, version string) (app, cli winresConfig, ok bool) {
	t.Helper()
	dir := t.TempDir()
	_, stderr, ok := runScript(t, version, nil, "build/scripts/package-windows.sh", "winres", dir)
	if !ok {
		return app, cli, false
	}
	for name, into := range map[string]*winresConfig{"winres.json": &app, "winres-cli.json": &cli} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("package-windows.sh winres wrote no %s (stderr: %s)", name, stderr)
		}
		if strings.Contains(string(b), "@") {
			t.Errorf("%s keeps a placeholder after filling in:\n%s", name, b)
		}
		if err := json.Unmarshal(b, into); err != nil {
			t.Fatalf("%s is not valid JSON after filling in: %v", name, err)
		}
	}
	return app, cli, true
}

func fillPlist(t *testing.T, version string) (map[string]any, bool) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "Info.plist")
	if _, _, ok := runScript(t, version, nil, "build/scripts/package-macos.sh", "plist", out); !ok {
		return nil, false
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("package-macos.sh plist wrote nothing: %v", err)
	}
	var m map[string]any
	if _, err := plist.Unmarshal(b, &m); err != nil {
		t.Fatalf("the filled-in Info.plist does not parse: %v", err)
	}
	return m, true
}

// TestNumericVersion: Windows and macOS derive the same a.b.c.d from every
// shape of version, and both keep the full semver where text is allowed.
func TestNumericVersion(t *testing.T) {
	for _, tc := range numericVersions {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.numeric
			app, cli, ok := fillWinres(t, tc.version)
			if !ok {
				t.Fatalf("package-windows.sh winres refused %q", tc.version)
			}
			for name, c := range map[string]winresConfig{"winres.json": app, "winres-cli.json": cli} {
				v := c.Version["#1"]["0000"]
				if v.Fixed.FileVersion != want || v.Fixed.ProductVersion != want {
					t.Errorf("%s: fixed versions %q / %q, want %q", name, v.Fixed.FileVersion, v.Fixed.ProductVersion, want)
				}
				if got := v.Info["0409"]["ProductVersion"]; got != tc.version {
					t.Errorf("%s: ProductVersion string %q, want the full %q", name, got, tc.version)
				}
			}
			m, ok := fillPlist(t, tc.version)
			if !ok {
				t.Fatalf("package-macos.sh plist refused %q", tc.version)
			}
			if got := m["CFBundleVersion"]; got != want {
				t.Errorf("CFBundleVersion %q, want %q (as on Windows)", got, want)
			}
			if got, short := m["CFBundleShortVersionString"], want[:strings.LastIndex(want, ".")]; got != short {
				t.Errorf("CFBundleShortVersionString %q, want %q", got, short)
			}
		})
	}
}

// TestVersionRefused: a version Windows cannot hold, or one that could
// break out of the JSON, sed or NSIS text it is pasted into, stops both
// scripts with a message instead of producing a package.
func TestVersionRefused(t *testing.T) {
	for _, tc := range []struct{ name, version, want string }{
		{"no patch", "1.2", "MAJOR.MINOR.PATCH"},
		{"v prefix", "v1.2.3", "MAJOR.MINOR.PATCH"},
		{"field over 65535", "1.70000.0", "65535"},
		{"commit count over 65535", "0.1.0-dev.70000+gabc", "65535"},
		{"quote", `1.2.3"`, "characters"},
		{"space", "1.2.3 beta", "characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, run := range [][]string{
				{"build/scripts/package-windows.sh", "winres", t.TempDir()},
				{"build/scripts/package-macos.sh", "plist", filepath.Join(t.TempDir(), "Info.plist")},
			} {
				_, stderr, ok := runScript(t, tc.version, nil, run[0], run[1:]...)
				if ok {
					t.Errorf("%s accepted VERSION %q", run[0], tc.version)
				} else if !strings.Contains(stderr, tc.want) {
					t.Errorf("%s refused %q saying %q, want it to mention %q", run[0], tc.version, stderr, tc.want)
				}
			}
		})
	}
}
