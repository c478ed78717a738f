package shellenv

import "strings"

// expand replaces %NAME% in a REG_EXPAND_SZ value the way Windows does:
// an unknown %NAME% stays as written and a lone % is kept. (lookup decides
// case: os.LookupEnv ignores it on Windows.)
func expand(s string, lookup func(string) (string, bool)) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		name := s[i+1 : i+1+j]
		b.WriteString(s[:i])
		if v, ok := lookup(name); ok && name != "" {
			b.WriteString(v)
			s = s[i+1+j+1:]
			continue
		}
		b.WriteString(s[i : i+1+j+1])
		s = s[i+1+j+1:]
	}
}
