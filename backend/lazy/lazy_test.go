package lazy

import (
	"strings"
	"testing"
)

func TestRegexpCompilesOnFirstUseOnly(t *testing.T) {
	re := Regexp(`^a+$`)
	if !re().MatchString("aaa") || re().MatchString("ab") {
		t.Fatal("the pattern does not match as compiled")
	}
	if re() != re() {
		t.Fatal("each call compiled the pattern again")
	}
	bad := Regexp(`(`) // must not panic until used
	defer func() {
		if recover() == nil {
			t.Fatal("a pattern that does not compile should panic at first use")
		}
	}()
	bad()
}

func TestHTMLEscapesAndParsesOnce(t *testing.T) {
	page := HTML("p", `<p>{{.}}</p>`)
	var b strings.Builder
	if err := page().Execute(&b, "<script>"); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "<p>&lt;script&gt;</p>" {
		t.Fatalf("got %q", got)
	}
	if page() != page() {
		t.Fatal("each call parsed the template again")
	}
}
