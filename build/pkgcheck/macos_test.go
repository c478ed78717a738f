package pkgcheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/launch"
)

// checkInfoPlist lists what is wrong with a filled-in Info.plist for the
// version (short MAJOR.MINOR.PATCH, bundle MAJOR.MINOR.PATCH.N).
func checkInfoPlist(m map[string]any, short, bundle string) []string {
	var problems []string
	for key, want := range map[string]string{
		// Native notifications need a bundle identifier (desktopnotify).
		"CFBundleIdentifier":  "com.osfoundry.desktop",
		"CFBundleName":        "osFoundry",
		"CFBundleDisplayName": "osFoundry",
		// The command line in Contents/Resources starts this one.
		"CFBundleExecutable":         launch.WindowName,
		"CFBundleIconFile":           "osfoundry.icns",
		"CFBundlePackageType":        "APPL",
		"CFBundleShortVersionString": short,
		"CFBundleVersion":            bundle,
		"LSMinimumSystemVersion":     "12.0",
		"LSApplicationCategoryType":  "public.app-category.developer-tools",
	} {
		if got, ok := m[key]; !ok {
			problems = append(problems, fmt.Sprintf("Info.plist has no %s (want %q)", key, want))
		} else if got != want {
			problems = append(problems, fmt.Sprintf("Info.plist %s = %#v, want %q", key, got, want))
		}
	}
	if got := m["NSHighResolutionCapable"]; got != true {
		problems = append(problems, fmt.Sprintf("Info.plist NSHighResolutionCapable = %#v, want true (else the window is blurry on Retina screens)", got))
	}
	if s, _ := m["NSHumanReadableCopyright"].(string); strings.TrimSpace(s) == "" {
		problems = append(problems, "Info.plist has no NSHumanReadableCopyright")
	}
	if !hasURLScheme(m["CFBundleURLTypes"], "osfoundry") {
		problems = append(problems, fmt.Sprintf("Info.plist CFBundleURLTypes = %#v does not register the osfoundry URL scheme", m["CFBundleURLTypes"]))
	}
	for key, v := range m {
		if s, ok := v.(string); ok && strings.Contains(s, "@") {
			problems = append(problems, fmt.Sprintf("Info.plist %s = %q keeps a placeholder", key, s))
		}
	}
	return problems
}

func hasURLScheme(types any, scheme string) bool {
	list, _ := types.([]any)
	for _, entry := range list {
		d, _ := entry.(map[string]any)
		schemes, _ := d["CFBundleURLSchemes"].([]any)
		for _, s := range schemes {
			if s == scheme {
				return true
			}
		}
	}
	return false
}

func TestInfoPlist(t *testing.T) {
	m, ok := fillPlist(t, "1.4.2-7-g1234567")
	if !ok {
		t.Fatal("package-macos.sh plist failed")
	}
	expectProblems(t, checkInfoPlist(m, "1.4.2", "1.4.2.7"), "")

	for _, tc := range []struct {
		name, want string
		breakIt    func(map[string]any)
	}{
		{"no bundle identifier", "CFBundleIdentifier", func(m map[string]any) { delete(m, "CFBundleIdentifier") }},
		{"the command line as executable", "CFBundleExecutable", func(m map[string]any) { m["CFBundleExecutable"] = "osfoundry" }},
		{"no osfoundry scheme", "osfoundry URL scheme", func(m map[string]any) {
			m["CFBundleURLTypes"] = []any{map[string]any{"CFBundleURLSchemes": []any{"http"}}}
		}},
		{"not high resolution", "NSHighResolutionCapable", func(m map[string]any) { delete(m, "NSHighResolutionCapable") }},
		{"placeholder left", "keeps a placeholder", func(m map[string]any) { m["CFBundleGetInfoString"] = "osFoundry @VERSION@" }},
		{"older version", "CFBundleVersion", func(m map[string]any) { m["CFBundleVersion"] = "1.4.2" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := make(map[string]any, len(m))
			for k, v := range m {
				c[k] = v
			}
			tc.breakIt(c)
			expectProblems(t, checkInfoPlist(c, "1.4.2", "1.4.2.7"), tc.want)
		})
	}
}

// TestMacOSSigningPlan: package-macos.sh signs with the identity only when
// MACOS_SIGN_IDENTITY is set (ad hoc otherwise), notarizes only when all
// three notary secrets are set, and refuses half a configuration instead
// of silently shipping an unnotarized app.
func TestMacOSSigningPlan(t *testing.T) {
	notary := []string{"MACOS_NOTARY_APPLE_ID=dev@example.com", "MACOS_NOTARY_TEAM_ID=ABCDE12345", "MACOS_NOTARY_PASSWORD=app-specific"}
	identity := "MACOS_SIGN_IDENTITY=Developer ID Application: Example (ABCDE12345)"
	for _, tc := range []struct {
		name string
		env  []string
		want string // stdout, or the error when it starts with "error: "
	}{
		{"no secrets", nil, "sign: ad-hoc\nnotarize: no\n"},
		{"identity only", []string{identity}, "sign: identity\nnotarize: no\n"},
		{"identity and notary", append([]string{identity}, notary...), "sign: identity\nnotarize: yes\n"},
		{"notary without identity", notary, "error: set MACOS_SIGN_IDENTITY"},
		{"two of three notary secrets", append([]string{identity}, notary[:2]...), "error: 2 of 3 are set"},
		{"empty values count as unset", []string{"MACOS_SIGN_IDENTITY=", "MACOS_NOTARY_APPLE_ID="}, "sign: ad-hoc\nnotarize: no\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, ok := runScript(t, "1.0.0", tc.env, "build/scripts/package-macos.sh", "plan")
			if want, isErr := strings.CutPrefix(tc.want, "error: "); isErr {
				if ok || !strings.Contains(stderr, want) {
					t.Errorf("plan: ok=%v stdout %q stderr %q, want a refusal mentioning %q", ok, stdout, stderr, want)
				}
				return
			}
			if !ok || stdout != tc.want {
				t.Errorf("plan: ok=%v stdout %q stderr %q, want %q", ok, stdout, stderr, tc.want)
			}
		})
	}
}
