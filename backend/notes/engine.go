package notes

import "time"

// What a Backend outside this package (the team server's PostgreSQL store,
// backend/notes/pgnotes) needs to store exactly what the SQLite one stores:
// the same timestamp text, the same tab decoding, the same searchable text.

// StoredTime is the stored form of a time: UTC, nanoseconds, fixed width,
// so comparing the text compares the times.
func StoredTime(t time.Time) string { return formatTime(t) }

// ParseStoredTime reads StoredTime's form back; "" is the zero time.
func ParseStoredTime(s string) time.Time { return parseTime(s) }

// DecodeTab returns the tab info with its stored data decoded by kind
// (text as it is, the other kinds from JSON).
func DecodeTab(info TabInfo, data string) (Tab, error) {
	return tabOf(TabRow{Tab: info, Data: data})
}

// SearchText is everything searchable in a Note (text tabs, slides, sheet
// cells that are strings, attachment text): what every engine indexes.
func SearchText(n Note) string { return noteText(n) }
