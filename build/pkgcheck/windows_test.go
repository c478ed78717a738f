package pkgcheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/osfoundry/desktop/backend/launch"
)

// winresConfig is the part of a go-winres config the checks read.
type winresConfig struct {
	Manifest map[string]map[string]manifestEntry `json:"RT_MANIFEST"`
	Version  map[string]map[string]versionEntry  `json:"RT_VERSION"`
	Icons    map[string]map[string]any           `json:"RT_GROUP_ICON"`
}

type manifestEntry struct {
	ExecutionLevel string `json:"execution-level"`
	DPIAwareness   string `json:"dpi-awareness"`
	CommonControls bool   `json:"use-common-controls-v6"`
}

type versionEntry struct {
	Fixed struct {
		FileVersion    string `json:"file_version"`
		ProductVersion string `json:"product_version"`
	} `json:"fixed"`
	Info map[string]map[string]string `json:"info"`
}

// checkWinres lists what is wrong with the filled-in resource configs of the
// window app and the command line.
func checkWinres(app, cli winresConfig, version string) []string {
	var problems []string
	m, ok := app.Manifest["#1"]["0409"]
	if !ok {
		return append(problems, "winres.json has no RT_MANIFEST #1 0409: the window would get no DPI awareness or Common Controls 6")
	}
	if m.DPIAwareness != "per monitor v2" {
		problems = append(problems, fmt.Sprintf("winres.json dpi-awareness = %q, want \"per monitor v2\"", m.DPIAwareness))
	}
	if !m.CommonControls {
		problems = append(problems, "winres.json use-common-controls-v6 is false")
	}
	if m.ExecutionLevel != "as invoker" {
		problems = append(problems, fmt.Sprintf("winres.json execution-level = %q, want \"as invoker\" (never ask for administrator rights)", m.ExecutionLevel))
	}
	for name, c := range map[string]winresConfig{"winres.json": app, "winres-cli.json": cli} {
		if len(c.Icons) == 0 {
			problems = append(problems, name+" has no RT_GROUP_ICON")
		}
		info := c.Version["#1"]["0000"].Info["0409"]
		for key, want := range map[string]string{"ProductName": "osFoundry", "CompanyName": "osFoundry", "ProductVersion": version, "FileVersion": version} {
			if info[key] != want {
				problems = append(problems, fmt.Sprintf("%s version info %s = %q, want %q", name, key, info[key], want))
			}
		}
	}
	for name, want := range map[string]string{"winres.json": launch.WindowName + ".exe", "winres-cli.json": launch.CLIName + ".exe"} {
		c := map[string]winresConfig{"winres.json": app, "winres-cli.json": cli}[name]
		if got := c.Version["#1"]["0000"].Info["0409"]["OriginalFilename"]; got != want {
			problems = append(problems, fmt.Sprintf("%s OriginalFilename = %q, want %q", name, got, want))
		}
	}
	return problems
}

func TestWinres(t *testing.T) {
	const version = "0.3.1-dev.12+gabcdef0"
	app, cli, ok := fillWinres(t, version)
	if !ok {
		t.Fatal("package-windows.sh winres failed")
	}
	expectProblems(t, checkWinres(app, cli, version), "")

	t.Run("system DPI", func(t *testing.T) {
		a := deepCopy(t, app)
		m := a.Manifest["#1"]["0409"]
		m.DPIAwareness = "system"
		a.Manifest["#1"]["0409"] = m
		expectProblems(t, checkWinres(a, cli, version), "dpi-awareness")
	})
	t.Run("no icon", func(t *testing.T) {
		c := deepCopy(t, cli)
		c.Icons = nil
		expectProblems(t, checkWinres(app, c, version), "winres-cli.json has no RT_GROUP_ICON")
	})
	t.Run("no manifest", func(t *testing.T) {
		a := deepCopy(t, app)
		a.Manifest = nil
		expectProblems(t, checkWinres(a, cli, version), "RT_MANIFEST")
	})
}

// deepCopy copies a config through JSON, so a broken copy never changes
// the original.
func deepCopy(t *testing.T, c winresConfig) winresConfig {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var out winresConfig
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// nsisCode is the installer script without its comment lines, so a
// commented-out instruction never counts.
func nsisCode(script string) string {
	var b strings.Builder
	for _, line := range strings.Split(script, "\n") {
		if l := strings.TrimSpace(line); l == "" || strings.HasPrefix(l, ";") || strings.HasPrefix(l, "#") {
			continue
		}
		b.WriteString(strings.TrimSpace(line))
		b.WriteByte('\n')
	}
	return b.String()
}

// nsisBlock is the body between the first line starting with start and the
// next line equal to end ("" when there is none).
func nsisBlock(code, start, end string) string {
	i := strings.Index(code, "\n"+start)
	if i < 0 {
		return ""
	}
	body := code[i+1:]
	if j := strings.Index(body, "\n"+end+"\n"); j >= 0 {
		return body[:j]
	}
	return ""
}

// checkInstallerScript lists what is wrong with build/windows/installer.nsi.
// aumid and urlName are the values the app registers itself at start
// (backend/desktopnotify/notify_windows.go); the installer must match them.
func checkInstallerScript(script, aumid, urlName string) []string {
	code := nsisCode(script)
	install := nsisBlock(code, `Section "osFoundry"`, "SectionEnd")
	uninstall := nsisBlock(code, `Section "Uninstall"`, "SectionEnd")
	addPath := nsisBlock(code, "Function AddToPath", "FunctionEnd")
	removePath := nsisBlock(code, "Function un.RemoveFromPath", "FunctionEnd")
	var problems []string
	need := func(where, text, lines, why string) {
		if !strings.Contains(text, lines) {
			problems = append(problems, fmt.Sprintf("installer.nsi (%s) lacks %q: %s", where, lines, why))
		}
	}
	need("top", code, "RequestExecutionLevel user\n", "a per-user install must never ask for administrator rights")
	need("top", code, `InstallDir "$LOCALAPPDATA\Programs\osFoundry"`, "per-user programs go to %LOCALAPPDATA%\\Programs")
	need("top", code, `!define APP_EXE "`+launch.WindowName+`.exe"`, "the window app's name")
	need("top", code, `!define CLI_EXE "`+launch.CLIName+`.exe"`, "the command line's name")
	need("top", code, `!define URL_KEY "Software\Classes\osfoundry"`, "osfoundry:// links")
	need("top", code, `!define AUMID "`+aumid+`"`, "the toast identity the app uses")
	need("top", code, `!define AUMID_KEY "Software\Classes\AppUserModelId\${AUMID}"`, "the toast identity's key")
	need("top", code, `!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\osFoundry"`, "Settings → Apps")

	need("install section", install, `File "/oname=${APP_EXE}"`, "the window app")
	need("install section", install, `File "/oname=${CLI_EXE}"`, "the command line beside it")
	need("install section", install, `WriteRegStr HKCU "${URL_KEY}" "" "`+urlName+`"`, "the link handler's name, as the app writes it")
	need("install section", install, `WriteRegStr HKCU "${URL_KEY}" "URL Protocol" ""`, "marks osfoundry: as a URL scheme")
	need("install section", install, `WriteRegStr HKCU "${URL_KEY}\shell\open\command" "" '"$INSTDIR\${APP_EXE}" "%1"'`, "Windows starts the app with the link")
	need("install section", install, `WriteRegStr HKCU "${AUMID_KEY}" "DisplayName" "osFoundry"`, "toasts are dropped for an unregistered identity")
	need("install section", install, `WriteUninstaller "$INSTDIR\${UNINSTALL_EXE}"`, "the uninstaller")
	for _, name := range []string{"DisplayName", "DisplayVersion", "DisplayIcon", "Publisher", "UninstallString"} {
		need("install section", install, `WriteRegStr HKCU "${UNINST_KEY}" "`+name+`"`, "Settings → Apps shows it")
	}
	need("install section", install, `WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize"`, "Settings → Apps shows the size")
	need("install section", install, "Call AddToPath", "osfoundry in new terminals")
	need("install section", install, "Call CheckWebView2", "the window needs WebView2")
	need("install section", install, "Call RefuseWhileRunning", "a running app cannot be replaced")
	need("AddToPath", addPath, `WriteRegExpandStr HKCU "Environment" "Path"`, "the user's PATH")
	need("AddToPath", addPath, `WriteRegStr HKCU "${UNINST_KEY}" "PathEntry"`, "the uninstaller removes exactly this entry")
	need("AddToPath", addPath, `${WM_SETTINGCHANGE} 0 "STR:Environment"`, "new terminals see the change")
	need("uninstall section", uninstall, "Call un.RemoveFromPath", "the PATH entry goes with the app")
	need("uninstall section", uninstall, `DeleteRegKey HKCU "${UNINST_KEY}"`, "Settings → Apps forgets it")
	need("uninstall section", uninstall, "Call un.RefuseWhileRunning", "a running app cannot be removed")
	need("un.RemoveFromPath", removePath, `ReadRegStr $3 HKCU "${UNINST_KEY}" "PathEntry"`, "only the entry the installer added")
	need("un.RemoveFromPath", removePath, `WriteRegExpandStr HKCU "Environment" "Path"`, "the user's PATH")
	need("un.RemoveFromPath", removePath, `${WM_SETTINGCHANGE} 0 "STR:Environment"`, "new terminals see the change")
	need("top", code, `{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}`, "the WebView2 runtime's client key")
	need("top", code, "https://go.microsoft.com/fwlink/p/?LinkId=2124703", "Microsoft's WebView2 bootstrapper")

	// The user's data (%APPDATA%\osfoundry) is never removed, and nothing is
	// removed recursively (the folder may hold the user's own files).
	for _, line := range strings.Split(code, "\n") {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "Delete" || f[0] == "RMDir" || f[0] == "DeleteRegKey") {
			if strings.Contains(line, "$APPDATA") || strings.Contains(line, "/r") {
				problems = append(problems, fmt.Sprintf("installer.nsi removes %q: the user's data and folders must stay", line))
			}
		}
	}
	return problems
}

// appRegistration reads the toast identity and the link handler's name the
// app registers at start.
func appRegistration(t *testing.T) (aumid, urlName string) {
	t.Helper()
	src := string(readFile(t, "backend/desktopnotify/notify_windows.go"))
	if m := regexp.MustCompile(`const appID = "([^"]+)"`).FindStringSubmatch(src); m != nil {
		aumid = m[1]
	}
	if m := regexp.MustCompile("\\{`Software\\\\Classes\\\\osfoundry`, \"\", \"([^\"]+)\"\\}").FindStringSubmatch(src); m != nil {
		urlName = m[1]
	}
	if aumid == "" || urlName == "" {
		t.Fatalf("cannot find appID and the osfoundry link's name in notify_windows.go (found %q, %q): update this test with it", aumid, urlName)
	}
	return aumid, urlName
}

func TestInstallerScript(t *testing.T) {
	script := string(readFile(t, "build/windows/installer.nsi"))
	aumid, urlName := appRegistration(t)
	expectProblems(t, checkInstallerScript(script, aumid, urlName), "")

	for _, tc := range []struct{ name, from, to, want string }{
		{"no URL Protocol", `WriteRegStr HKCU "${URL_KEY}" "URL Protocol" ""`, "", "URL Protocol"},
		{"commented out", `  Call AddToPath`, `  ; Call AddToPath`, "Call AddToPath"},
		{"PATH entry left behind", `  Call un.RemoveFromPath`, "", "un.RemoveFromPath"},
		{"no uninstaller", `WriteUninstaller "$INSTDIR\${UNINSTALL_EXE}"`, "", "WriteUninstaller"},
		{"administrator", "RequestExecutionLevel user", "RequestExecutionLevel admin", "RequestExecutionLevel user"},
		{"data folder removed", `  RMDir "$INSTDIR"`, "  RMDir \"$INSTDIR\"\n  RMDir /r \"$APPDATA\\osfoundry\"", "the user's data"},
		{"another toast identity", `!define AUMID "osFoundry.Desktop"`, `!define AUMID "osfoundry"`, "toast identity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(script, tc.from) {
				t.Fatalf("installer.nsi no longer contains %q: update this case", tc.from)
			}
			broken := strings.Replace(script, tc.from, tc.to, 1)
			expectProblems(t, checkInstallerScript(broken, aumid, urlName), tc.want)
		})
	}
}
