// Package consentpage reads the Connected endpoint's consent page the way
// the owner's browser sees it: the hidden request and CSRF fields, the
// workspaces offered and the connections to choose from. The endpoint's
// own tests and connecttest's Browser share it.
package consentpage

import (
	"fmt"
	"html"
	"regexp"
)

// Form is what the consent page offered.
type Form struct {
	Request, CSRF string
	Workspaces    []string          // values, first is preselected
	Connections   map[string]string // label → value
	Page          string
}

var (
	hiddenRE = regexp.MustCompile(`name="(request|csrf)" value="([^"]*)"`)
	wsRE     = regexp.MustCompile(`name="workspace" value="([^"]*)"`)
	connRE   = regexp.MustCompile(`name="connection" value="([^"]*)"[^>]*> ([^<]*)<`)
)

// Parse reads the form from a consent page; a page without one is an
// error that shows the page.
func Parse(page string) (*Form, error) {
	f := &Form{Connections: map[string]string{}, Page: page}
	for _, m := range hiddenRE.FindAllStringSubmatch(page, -1) {
		if m[1] == "request" {
			f.Request = m[2]
		} else {
			f.CSRF = m[2]
		}
	}
	for _, m := range wsRE.FindAllStringSubmatch(page, -1) {
		f.Workspaces = append(f.Workspaces, html.UnescapeString(m[1]))
	}
	for _, m := range connRE.FindAllStringSubmatch(page, -1) {
		f.Connections[html.UnescapeString(m[2])] = html.UnescapeString(m[1])
	}
	if f.Request == "" || f.CSRF == "" {
		return nil, fmt.Errorf("no consent form in page:\n%s", page)
	}
	return f, nil
}
