package board

import (
	"strings"
	"unicode"

	"github.com/osfoundry/desktop/backend/lazy"
)

// maxPreview bounds a card's line (the card shows three lines at most).
const maxPreview = 200

var (
	fence      = lazy.Regexp("^\\s*(```|~~~)")
	mdMarkers  = lazy.Regexp(`^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)`)
	mdEmphasis = strings.NewReplacer("**", "", "__", "", "`", "")
)

// ProsePreview is the last line of prose in an answer: text inside code
// fences is skipped, and so are lines that are code or data rather than
// words (a JSON object's closing "}", a lone bracket), with Markdown
// markers taken off. "" when the answer has no prose at all.
func ProsePreview(text string) string {
	inFence := false
	last := ""
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if fence().MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence || !IsProse(line) {
			continue
		}
		last = line
	}
	last = oneLine(mdEmphasis.Replace(mdMarkers().ReplaceAllString(last, "")))
	if r := []rune(last); len(r) > maxPreview {
		last = string(r[:maxPreview]) + "…"
	}
	return last
}

// IsProse: the line has words and does not read as code or data (JSON
// members, braces, brackets).
func IsProse(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || strings.ContainsAny(t[:1], `{}[]"`) || strings.HasSuffix(t, "{") || strings.HasSuffix(t, ",") && strings.Contains(t, `":`) {
		return false
	}
	letters := 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}

// LastLines is a message as the summary's last block: nil when it is empty.
func LastLines(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// ShortFolder is a folder as a card names it: its last element.
func ShortFolder(dir string) string {
	dir = strings.TrimRight(dir, `/\`)
	if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
		return dir[i+1:]
	}
	return dir
}

// FirstLine is a text's first line, with " …" when more follows.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
