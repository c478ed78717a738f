package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func helpRun(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Run(&Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, args)
	return out.String(), errb.String(), code
}

// Every command's --help is a page: exit 0 on stdout, its name, every flag
// of its flag sets, an example and where the docs are. A new command
// without a Page fails here.
func TestEveryCommandHasAHelpPage(t *testing.T) {
	for _, c := range sortedCommands() {
		t.Run(c.Name, func(t *testing.T) {
			if c.Page == nil {
				t.Fatalf("osfoundry %s has no help Page: give its Command a Page (About, Flags, Example, Docs)", c.Name)
			}
			out, errOut, code := helpRun(c.Name, "--help")
			if code != 0 || errOut != "" {
				t.Fatalf("osfoundry %s --help: exit %d, stderr %q; want 0 and nothing on stderr", c.Name, code, errOut)
			}
			if !strings.HasPrefix(out, "osfoundry "+c.Name+" — ") {
				t.Errorf("the page does not start with its name: %q", firstLine(out))
			}
			flagSets := []*Sub{{Name: "", Flags: c.Page.Flags}}
			for i := range c.Page.Subs {
				s := &c.Page.Subs[i]
				flagSets = append(flagSets, s)
				if !strings.Contains(out, "\n  "+strings.TrimSpace(s.Name+" "+s.Usage)+"\n") {
					t.Errorf("the page does not list subcommand %s", s.Name)
				}
			}
			for _, s := range flagSets {
				if s.Flags == nil {
					continue
				}
				s.Flags().VisitAll(func(f *flagT) {
					if !regexp.MustCompile(`(?m)^ +--?` + regexp.QuoteMeta(f.Name) + `( |$)`).MatchString(out) {
						t.Errorf("the page lacks flag -%s of %s", f.Name, strings.TrimSpace(c.Name+" "+s.Name))
					}
				})
			}
			if !regexp.MustCompile(`(?m)^Example:\n  osfoundry ` + regexp.QuoteMeta(c.Name) + `\b`).MatchString(out) {
				t.Errorf("the page has no example line `osfoundry %s …`:\n%s", c.Name, out)
			}
			docs := "Docs: " + filepath.Join(docsDir(), filepath.FromSlash(c.Page.Docs))
			if c.Page.Docs == "" || !strings.Contains(out, docs) {
				t.Errorf("the page has no %q line:\n%s", docs, out)
			}
			if _, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(c.Page.Docs))); err != nil {
				t.Errorf("its Docs names %s, which is not in the source tree (the packages install that tree): %v", c.Page.Docs, err)
			}
			for _, ask := range [][]string{{c.Name, "-h"}, {"help", c.Name}} {
				if o, _, code := helpRun(ask...); code != 0 || o != out {
					t.Errorf("osfoundry %s: exit %d, and its page differs from --help's", strings.Join(ask, " "), code)
				}
			}
		})
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	out, _, code := helpRun("help")
	if code != 0 {
		t.Fatalf("osfoundry help: exit %d", code)
	}
	for _, c := range sortedCommands() {
		if !strings.Contains(out, "  osfoundry "+c.Name) {
			t.Errorf("osfoundry help does not list %s", c.Name)
		}
	}
	if !strings.Contains(out, "osfoundry help CMD") {
		t.Errorf("osfoundry help does not say how to see a command's page:\n%s", out)
	}
	if _, errOut, code := helpRun("help", "no-such"); code != 2 || !strings.Contains(errOut, "osfoundry help") {
		t.Errorf("osfoundry help no-such: exit %d, %q; want 2 naming osfoundry help", code, errOut)
	}
}

// A subcommand's --help shows its own usage and flags.
func TestSubcommandHelp(t *testing.T) {
	out, _, code := helpRun("rules", "sign", "--help")
	if code != 0 || !strings.HasPrefix(out, "osfoundry rules sign — ") || !strings.Contains(out, "--key VALUE") || strings.Contains(out, "--from") {
		t.Fatalf("osfoundry rules sign --help: exit %d\n%s", code, out)
	}
	// After "--" the words are a task's or an adapter's, not a request for help.
	if _, _, code := helpRun("screen", "--", "--help"); code == 0 {
		t.Errorf("osfoundry screen -- --help printed help; it should read the file --help")
	}
}

// A wrong flag is one error line, the usage and where the page is: exit 2,
// nothing on stdout.
func TestFlagErrorPointsAtHelp(t *testing.T) {
	for _, args := range [][]string{{"screen", "--bogus"}, {"detect", "--bogus", "x"}, {"run", "--bogus"}, {"panes", "seed", "--count", "x"}} {
		out, errOut, code := helpRun(args...)
		if code != 2 || out != "" {
			t.Errorf("osfoundry %s: exit %d, stdout %q; want 2 and nothing", strings.Join(args, " "), code, out)
		}
		want := "run osfoundry " + args[0] + " --help"
		if !strings.HasPrefix(errOut, "osfoundry "+args[0]+": ") || !strings.Contains(errOut, want) || strings.Contains(errOut, "Usage of") {
			t.Errorf("osfoundry %s: stderr %q; want one error line and %q", strings.Join(args, " "), errOut, want)
		}
	}
}

// The flags an owner subcommand's usage names are the ones its page describes.
func TestOwnerSubcommandFlagsMatchUsage(t *testing.T) {
	re := regexp.MustCompile(`(?:^| |\[)--?([a-z]+)`)
	for name, subs := range map[string]map[string]notesSub{"notes": notesSubs, "knowledge": knowledgeSubs, "records": recordsSubs} {
		for sub, s := range subs {
			var named []string
			for _, m := range re.FindAllStringSubmatch(s.usage, -1) {
				named = append(named, m[1])
			}
			if strings.Join(named, ",") != strings.Join(s.flags, ",") {
				t.Errorf("%s %s: usage names flags %v, its page describes %v", name, sub, named, s.flags)
			}
			for _, f := range s.flags {
				if ownerFlagUsage[f] == "" {
					t.Errorf("%s %s: flag -%s has no ownerFlagUsage text", name, sub, f)
				}
			}
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

type flagT = flag.Flag
