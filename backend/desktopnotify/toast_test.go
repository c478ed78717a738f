package desktopnotify

import (
	"encoding/xml"
	"strings"
	"testing"
)

type toastDoc struct {
	XMLName    xml.Name `xml:"toast"`
	Activation string   `xml:"activationType,attr"`
	Launch     string   `xml:"launch,attr"`
	Texts      []string `xml:"visual>binding>text"`
	Actions    []string `xml:"actions>action"`
}

func TestToastXML(t *testing.T) {
	cases := []struct {
		name string
		m    Message
		link string
	}{
		{"plain", Message{Title: "Needs you · shop-api", Body: "Claude Code wants to run: npm test"}, "osfoundry://pane/p-3?t=0a1b"},
		{"markup in the prompt", Message{Title: `a "quoted" <title>`, Body: `</text></binding></visual><actions><action content="x" arguments="y"/></actions><visual><binding><text>`}, `osfoundry://pane/p-3?t=1&x="><a`},
		{"control characters and emoji", Message{Title: "t\x01\x1b[31m", Body: "ok 🚀 中文 e\u0301"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := toastXML(c.m, c.link)
			var doc toastDoc
			if err := xml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not well-formed XML: %v\n%s", err, out)
			}
			if len(doc.Actions) != 0 || len(doc.Texts) != 2 {
				t.Fatalf("values changed the toast's structure: %+v\n%s", doc, out)
			}
			if c.link != "" && (doc.Launch != c.link || doc.Activation != "protocol") {
				t.Fatalf("launch %q (%q), want %q as a protocol activation", doc.Launch, doc.Activation, c.link)
			}
			if c.link == "" && (doc.Launch != "" || doc.Activation != "") {
				t.Fatalf("a toast without link must not activate anything: %s", out)
			}
			if doc.Texts[1] != c.m.Body {
				t.Fatalf("body %q, want %q", doc.Texts[1], c.m.Body)
			}
			// Control characters are not allowed in XML; they become U+FFFD.
			if want := strings.Map(func(r rune) rune {
				if r < 0x20 {
					return '\uFFFD'
				}
				return r
			}, c.m.Title); doc.Texts[0] != want {
				t.Fatalf("title %q, want %q", doc.Texts[0], want)
			}
		})
	}
}
