// Package lazy builds package-level regular expressions and HTML pages the
// first time they are used instead of at start-up. The command line links
// every package for every subcommand, the hook helper agents run before
// each tool call among them, so what a package's variables compute at
// start-up is paid on each of those calls (`GODEBUG=inittrace=1 osfoundry
// version` lists it per package).
package lazy

import (
	"html/template"
	"regexp"
	"sync"
)

// Regexp compiles pattern the first time the returned function is called;
// a pattern that does not compile panics there, as regexp.MustCompile
// would at start-up.
func Regexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// HTML parses an HTML template named name the first time the returned
// function is called; one that does not parse panics there.
func HTML(name, text string) func() *template.Template {
	return sync.OnceValue(func() *template.Template { return template.Must(template.New(name).Parse(text)) })
}
