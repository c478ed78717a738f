package cli

import (
	"fmt"
	"sort"
	"strings"
)

// ManPages returns every man page as markdown in go-md2man's dialect,
// keyed by file name: osfoundry.1 and osfoundry-CMD.1 for each command,
// written from the same Pages as `--help`. build/mangen turns them into
// roff; the command line itself never links a markdown renderer.
func ManPages(version, date string) map[string]string {
	pages := map[string]string{"osfoundry.1": mainManPage(version, date)}
	for _, c := range sortedCommands() {
		pages["osfoundry-"+c.Name+".1"] = commandManPage(c, version, date)
	}
	return pages
}

func sortedCommands() []*Command {
	cs := make([]*Command, 0, len(commands))
	for _, c := range commands {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	return cs
}

func manHeader(b *strings.Builder, title, version, date string) {
	fmt.Fprintf(b, "%% \"%s\" \"1\" \"%s\" \"osfoundry %s\" \"osFoundry Manual\"\n", strings.ToUpper(title), date, version)
}

func mainManPage(version, date string) string {
	var b strings.Builder
	manHeader(&b, "osfoundry", version, date)
	b.WriteString("# NAME\nosfoundry - osFoundry desktop: the app window and its headless commands\n\n")
	b.WriteString("# SYNOPSIS\n**osfoundry**\n\n**osfoundry** *COMMAND* [*ARGS*...]\n\n**osfoundry help** [*COMMAND*]\n\n")
	b.WriteString("# DESCRIPTION\n" + mdText("With no arguments osfoundry opens the app window, or brings the running one to the front. "+
		"With a command it works headless, without a window: every command below has its own page, "+
		"printed by `osfoundry help COMMAND` or `osfoundry COMMAND --help`, and its own man page.") + "\n\n")
	b.WriteString("# COMMANDS\n")
	for _, c := range sortedCommands() {
		fmt.Fprintf(&b, "**%s**\n: %s See **osfoundry-%s**(1).\n\n", c.Name, mdText(c.Help), c.Name)
	}
	b.WriteString("# FILES\n" + mdText("App data lives in ~/.config/osfoundry (override with OSFOUNDRY_HOME). "+
		"The documents are in "+DocsDir+": README.md, docs/ and rules/README.md.") + "\n\n")
	b.WriteString("# SEE ALSO\n")
	var see []string
	for _, c := range sortedCommands() {
		see = append(see, fmt.Sprintf("**osfoundry-%s**(1)", c.Name))
	}
	b.WriteString(strings.Join(see, ", ") + "\n")
	return b.String()
}

func commandManPage(c *Command, version, date string) string {
	p := c.page()
	var b strings.Builder
	manHeader(&b, "osfoundry-"+c.Name, version, date)
	fmt.Fprintf(&b, "# NAME\nosfoundry-%s - %s\n\n", c.Name, mdText(oneLine(c.Help)))
	fmt.Fprintf(&b, "# SYNOPSIS\n**osfoundry %s** %s\n\n", c.Name, mdText(c.Usage))
	b.WriteString("# DESCRIPTION\n" + mdText(c.Help) + "\n\n")
	if p.About != "" {
		b.WriteString(mdParagraphs(p.About) + "\n\n")
	}
	if len(p.Subs) > 0 {
		b.WriteString("# COMMANDS\n")
		for _, s := range p.Subs {
			fmt.Fprintf(&b, "**%s %s** %s\n: %s\n\n", c.Name, s.Name, mdText(s.Usage), mdText(oneLine(s.About)))
			for _, f := range flagList(s.Flags) {
				fmt.Fprintf(&b, "**%s %s %s**\n: %s\n\n", c.Name, s.Name, mdText(f.Spec), mdText(f.Usage))
			}
		}
	}
	if fl := flagList(p.Flags); len(fl) > 0 {
		b.WriteString("# OPTIONS\n")
		for _, f := range fl {
			fmt.Fprintf(&b, "**%s**\n: %s\n\n", mdText(f.Spec), mdText(f.Usage))
		}
	}
	b.WriteString("# EXAMPLE\n")
	for _, l := range strings.Split(strings.TrimSpace(p.Example), "\n") {
		b.WriteString("    " + l + "\n")
	}
	fmt.Fprintf(&b, "\n# FILES\n%s\n\n", mdText(DocsDir+"/"+p.Docs))
	b.WriteString("# SEE ALSO\n**osfoundry**(1)\n")
	return b.String()
}

// mdParagraphs keeps a page's blank-line paragraphs, each on one line.
func mdParagraphs(s string) string {
	paras := strings.Split(strings.TrimSpace(s), "\n\n")
	for i, p := range paras {
		paras[i] = mdText(strings.Join(strings.Fields(p), " "))
	}
	return strings.Join(paras, "\n\n")
}

// mdSpecial are the characters markdown would read as markup; backquotes
// are kept, so `code` in a page stays code.
var mdSpecial = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `#`, `\#`, `|`, `\|`, `~`, `\~`, `&`, `\&`)

// mdText is s as one line of markdown text.
func mdText(s string) string {
	parts := strings.Split(strings.Join(strings.Fields(s), " "), "`")
	for i := range parts {
		if i%2 == 0 || i == len(parts)-1 { // outside a code span (an unpaired backquote stays text)
			parts[i] = mdSpecial.Replace(parts[i])
		}
	}
	return strings.Join(parts, "`")
}
