package board

import (
	"regexp"
	"strings"
	"unicode"
)

// maxPreview bounds a card's line (the card shows three lines at most).
const maxPreview = 200

var (
	fence      = regexp.MustCompile("^\\s*(```|~~~)")
	mdMarkers  = regexp.MustCompile(`^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)`)
	mdEmphasis = strings.NewReplacer("**", "", "__", "", "`", "")
)

// prosePreview is the last line of prose in an answer: text inside code
// fences is skipped, and so are lines that are code or data rather than
// words (a JSON object's closing "}", a lone bracket), with Markdown
// markers taken off. "" when the answer has no prose at all.
func prosePreview(text string) string {
	inFence := false
	last := ""
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence || !isProse(line) {
			continue
		}
		last = line
	}
	last = oneLine(mdEmphasis.Replace(mdMarkers.ReplaceAllString(last, "")))
	if r := []rune(last); len(r) > maxPreview {
		last = string(r[:maxPreview]) + "…"
	}
	return last
}

// isProse: the line has words and does not read as code or data (JSON
// members, braces, brackets).
func isProse(line string) bool {
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

// lastLines is a message as the summary's last block: nil when it is empty.
func lastLines(text string) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}
