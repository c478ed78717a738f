package desktopnotify

import (
	"bytes"
	"encoding/xml"
)

// toastXML is a Windows toast for m. With a link, clicking the toast opens
// it (protocol activation: the OS starts the registered osfoundry:// handler,
// which hands the link to the running window). Every value is XML-escaped,
// so a title or prompt summary cannot add elements or attributes.
func toastXML(m Message, link string) string {
	var b bytes.Buffer
	b.WriteString(`<toast`)
	if link != "" {
		b.WriteString(` activationType="protocol" launch="`)
		xml.EscapeText(&b, []byte(link))
		b.WriteString(`"`)
	}
	b.WriteString(`><visual><binding template="ToastGeneric"><text>`)
	xml.EscapeText(&b, []byte(m.Title))
	b.WriteString(`</text><text>`)
	xml.EscapeText(&b, []byte(m.Body))
	b.WriteString(`</text></binding></visual></toast>`)
	return b.String()
}
