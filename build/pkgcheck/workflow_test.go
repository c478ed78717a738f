package pkgcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type workflow struct {
	On   map[string]any `yaml:"on"`
	Jobs map[string]job `yaml:"jobs"`
}

type job struct {
	RunsOn string            `yaml:"runs-on"`
	Env    map[string]string `yaml:"env"`
	Steps  []step            `yaml:"steps"`
}

type step struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	If   string            `yaml:"if"`
	With map[string]any    `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

// runsCommand reports whether a step's script has a line that is exactly
// the command (so "make package" is not found in "make package-macos").
func (s step) runsCommand(command string) bool {
	for _, line := range strings.Split(s.Run, "\n") {
		if strings.TrimSpace(line) == command {
			return true
		}
	}
	return false
}

// buildCommands are what the Make targets run, as commands (at a line's
// start or after ; & | or a parenthesis); the workflow must call the
// targets instead of repeating them.
var buildCommands = regexp.MustCompile(`(?m)(?:^|[;&|(])\s*((?:sudo\s+)?(?:go build|go run|npm run build|makensis|lipo|codesign|hdiutil|ditto|xcrun|\S*package-[a-z]+\.sh))\b`)

// checkWorkflow lists what is wrong with the release workflow.
func checkWorkflow(wf workflow) []string {
	var problems []string
	push, _ := wf.On["push"].(map[string]any)
	tags, _ := push["tags"].([]any)
	if !slices.Contains(tags, any("v*")) {
		problems = append(problems, fmt.Sprintf("release.yml: on.push.tags = %v, want it to include \"v*\" (a version tag starts a release)", tags))
	}
	if _, ok := wf.On["workflow_dispatch"]; !ok {
		problems = append(problems, "release.yml: no workflow_dispatch trigger (a release build must be startable by hand)")
	}

	jobWith := func(runner, command string) (string, job, bool) {
		for name, j := range wf.Jobs {
			if !strings.HasPrefix(j.RunsOn, runner) {
				continue
			}
			for _, s := range j.Steps {
				if s.runsCommand(command) {
					return name, j, true
				}
			}
		}
		return "", job{}, false
	}
	for _, want := range []struct{ runner, command string }{
		{"macos-", "make package-macos"},
		{"ubuntu-", "make package"},
	} {
		name, j, ok := jobWith(want.runner, want.command)
		if !ok {
			problems = append(problems, fmt.Sprintf("release.yml: no %s* job runs %q", want.runner, want.command))
			continue
		}
		problems = append(problems, checkJobSetup(name, j)...)
	}

	for name, j := range wf.Jobs {
		for _, s := range j.Steps {
			if m := buildCommands.FindStringSubmatch(s.Run); m != nil {
				problems = append(problems, fmt.Sprintf("release.yml job %s step %q runs %q itself: call the Make target instead", name, s.Name, m[1]))
			}
			// Signing needs its secrets; without them the step must not run
			// (a fork or a release without a certificate still builds).
			if strings.Contains(s.Run, "security import") || strings.Contains(s.Run, "create-keychain") {
				if !strings.Contains(s.If, "env.MACOS_CERTIFICATE_P12 != ''") {
					problems = append(problems, fmt.Sprintf("release.yml job %s step %q imports the signing certificate with if %q: it must run only when env.MACOS_CERTIFICATE_P12 != ''", name, s.Name, s.If))
				}
			}
		}
	}

	// Signing and notarization happen inside package-macos.sh, decided by
	// these variables (TestMacOSSigningPlan): they must come from secrets.
	if name, j, ok := jobWith("macos-", "make package-macos"); ok {
		for _, v := range []string{"MACOS_SIGN_IDENTITY", "MACOS_NOTARY_APPLE_ID", "MACOS_NOTARY_TEAM_ID", "MACOS_NOTARY_PASSWORD", "MACOS_CERTIFICATE_P12"} {
			if want := "${{ secrets." + v + " }}"; j.Env[v] != want {
				problems = append(problems, fmt.Sprintf("release.yml job %s env %s = %q, want %q", name, v, j.Env[v], want))
			}
		}
	}
	return problems
}

// checkJobSetup: the version comes from git describe (full history and
// tags), and the toolchains are the project's.
func checkJobSetup(name string, j job) []string {
	var problems []string
	uses := func(action string) (step, bool) {
		for _, s := range j.Steps {
			if strings.HasPrefix(s.Uses, action+"@") {
				return s, true
			}
		}
		return step{}, false
	}
	if s, ok := uses("actions/checkout"); !ok || fmt.Sprint(s.With["fetch-depth"]) != "0" {
		problems = append(problems, fmt.Sprintf("release.yml job %s: checkout needs fetch-depth: 0 (git describe needs the tags)", name))
	}
	if s, ok := uses("actions/setup-go"); !ok || !strings.HasPrefix(fmt.Sprint(s.With["go-version"]), "1.26") {
		problems = append(problems, fmt.Sprintf("release.yml job %s: needs actions/setup-go with go-version 1.26", name))
	}
	if s, ok := uses("actions/setup-node"); !ok || fmt.Sprint(s.With["node-version"]) != "20" {
		problems = append(problems, fmt.Sprintf("release.yml job %s: needs actions/setup-node with node-version 20", name))
	}
	if _, ok := uses("actions/upload-artifact"); !ok {
		problems = append(problems, fmt.Sprintf("release.yml job %s uploads nothing", name))
	}
	return problems
}

func parseWorkflow(t *testing.T, b []byte) workflow {
	t.Helper()
	var wf workflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("release.yml does not parse: %v", err)
	}
	return wf
}

func TestReleaseWorkflow(t *testing.T) {
	src := string(readFile(t, ".github/workflows/release.yml"))
	expectProblems(t, checkWorkflow(parseWorkflow(t, []byte(src))), "")

	for _, tc := range []struct{ name, from, to, want string }{
		{"no tag trigger", `tags: ["v*"]`, `branches: [main]`, `"v*"`},
		{"no manual trigger", "  workflow_dispatch:\n", "", "workflow_dispatch"},
		{"macOS target renamed", "run: make package-macos", "run: make package-mac", "make package-macos"},
		{"make package only as a prefix", "run: make package\n", "run: make package-linux\n", `"make package"`},
		{"shallow clone", "fetch-depth: 0 # the version comes from git describe, which needs the tags\n      - uses: actions/setup-go@v5\n        with:\n          go-version: \"1.26\"\n      - uses: actions/setup-node@v4\n        with:\n          node-version: \"20\"\n      - name: Import",
			"fetch-depth: 1\n      - uses: actions/setup-go@v5\n        with:\n          go-version: \"1.26\"\n      - uses: actions/setup-node@v4\n        with:\n          node-version: \"20\"\n      - name: Import", "fetch-depth: 0"},
		{"unconditional keychain import", "        if: env.MACOS_CERTIFICATE_P12 != '' && env.MACOS_SIGN_IDENTITY != ''\n        run: |", "        run: |", "MACOS_CERTIFICATE_P12 != ''"},
		{"notary password not from secrets", "MACOS_NOTARY_PASSWORD: ${{ secrets.MACOS_NOTARY_PASSWORD }}", "MACOS_NOTARY_PASSWORD: hunter2", "MACOS_NOTARY_PASSWORD"},
		{"build command repeated", "run: make package-macos", "run: |\n          make package-macos\n          hdiutil create -srcfolder build/dist x.dmg", "call the Make target"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(src, tc.from) {
				t.Fatalf("release.yml no longer contains %q: update this case", tc.from)
			}
			broken := strings.Replace(src, tc.from, tc.to, 1)
			expectProblems(t, checkWorkflow(parseWorkflow(t, []byte(broken))), tc.want)
		})
	}
}
