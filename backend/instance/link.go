package instance

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"

	"github.com/osfoundry/desktop/backend/lazy"
)

// Scheme is the URL scheme the OS hands to the app (a clicked Windows
// notification opens osfoundry://pane/<id>?t=<token>).
const Scheme = "osfoundry"

// idPattern is what a link may name: the app's own ids (pane ids such as
// "p-3"), never a path.
var idPattern = lazy.Regexp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Errors of Open.
var (
	ErrNotLink   = errors.New("not an osfoundry:// link")
	ErrBadLink   = errors.New("malformed osfoundry:// link: expected osfoundry://<kind>/<id>?t=<token>")
	ErrStaleLink = errors.New("this link was made by an earlier run of osFoundry (or not by osFoundry); it opens nothing")
)

// token is the link's proof that this instance made it: HMAC-SHA-256 of
// "kind/id" under the instance secret, 128 bits in hex. A web page or
// another program can start the app with an osfoundry:// URL, but cannot
// make it open a pane.
func (i *Instance) token(kind, id string) string {
	m := hmac.New(sha256.New, i.secret)
	m.Write([]byte(kind + "/" + id))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// Link is an osfoundry:// URL that opens kind/id in this instance.
func (i *Instance) Link(kind, id string) string {
	return Scheme + "://" + url.PathEscape(kind) + "/" + url.PathEscape(id) + "?t=" + i.token(kind, id)
}

// Open checks a link this instance made and returns what it names.
func (i *Instance) Open(raw string) (kind, id string, err error) {
	if len(raw) > 512 {
		return "", "", ErrBadLink
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != Scheme {
		if err == nil {
			err = ErrNotLink
		}
		return "", "", fmt.Errorf("%w: %v", ErrNotLink, err)
	}
	kind, id = u.Host, u.Path
	if len(id) > 0 && id[0] == '/' {
		id = id[1:]
	}
	if !idPattern().MatchString(kind) || !idPattern().MatchString(id) || len(u.Query()["t"]) != 1 {
		return "", "", ErrBadLink
	}
	got, err := hex.DecodeString(u.Query().Get("t"))
	want, _ := hex.DecodeString(i.token(kind, id))
	if err != nil || !hmac.Equal(got, want) {
		return "", "", ErrStaleLink
	}
	return kind, id, nil
}
