// Package rulesupdate brings new agent-detection rules without a new
// release: it fetches a published rules bundle (the <agent>.toml files of
// /rules, as JSON), checks its ed25519 signature against the key built into
// the app, checks every file exactly as the app checks an override at start
// (backend/detect), and only then installs the files into the override
// folder (~/.osfoundry/agent-detection) in one step. A bundle that fails
// any check changes nothing. The package never runs anything a bundle
// names: rules files are data (see /rules).
package rulesupdate

import (
	"cmp"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/detect"
)

// ProductionPublicKey is the base64 ed25519 public key the published rules
// bundles are signed with. Its private half is kept by the maintainers
// (docs: rules/README.md); tests pass their own key instead.
const ProductionPublicKey = "9/fUsSizm07//6o/sDA9EHRfypPJe6pGikcQaZGiVbM="

// DefaultURL is where the published bundle lives.
const DefaultURL = "https://osfoundry.io/desktop/agent-detection/rules-bundle.json"

// Format is the bundle format this app reads.
const Format = 1

// maxFiles bounds a bundle: one file per agent the app knows, with room.
const maxFiles = 64

// Bundle is the published file: the payload's exact bytes (base64) and the
// signature over those bytes, so nothing has to be re-encoded to verify.
type Bundle struct {
	Payload   string `json:"payload"`
	Signature string `json:"signature"`
}

// Payload is what a bundle carries.
type Payload struct {
	Format int `json:"format"`
	// Version orders bundles: dotted numbers ("2026.12.01", "v7"), compared
	// number by number. A bundle older than the installed one is refused,
	// so an old, validly signed bundle cannot bring back rules a newer one
	// replaced. Missing, it counts as 0 (bundles signed before versions
	// were compared).
	Version string `json:"version"`
	// Expires (RFC 3339) is when the bundle stops being installable, so a
	// mirror cannot keep serving an old one forever. Bundles signed before
	// it existed have none.
	Expires string            `json:"expires,omitempty"`
	Files   map[string]string `json:"files"` // "claude.toml" → its text
}

// ParseVersion reads a bundle version: dotted non-negative numbers with an
// optional leading v. "" is 0; anything else is an error.
func ParseVersion(v string) ([]uint64, error) {
	v = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(v), "v"), "V")
	if v == "" {
		return []uint64{0}, nil
	}
	var out []uint64
	for _, part := range strings.Split(v, ".") {
		n, err := strconv.ParseUint(part, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("the version %q is not dotted numbers like 2026.12.01", v)
		}
		out = append(out, n)
	}
	return out, nil
}

// compareVersions orders two versions; one that does not parse (a bundle
// signed before versions were compared) counts as 0.
func compareVersions(a, b string) int {
	pa, err := ParseVersion(a)
	if err != nil {
		pa = []uint64{0}
	}
	pb, err := ParseVersion(b)
	if err != nil {
		pb = []uint64{0}
	}
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y uint64
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		if x != y {
			return cmp.Compare(x, y)
		}
	}
	return 0
}

// Digest identifies a payload's files (not its version or expiry), so a
// bundle of the same version with other rules can be told apart.
func (p Payload) Digest() string {
	b, _ := json.Marshal(p.Files) // map keys are sorted: stable
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Names lists the payload's files in order.
func (p Payload) Names() []string {
	out := make([]string, 0, len(p.Files))
	for n := range p.Files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrUnchanged ends every refusal: a bundle that fails a check changes
// nothing, and the message says so.
var ErrUnchanged = errors.New("nothing was changed")

func refuse(format string, a ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, a...), ErrUnchanged)
}

// ParseKey decodes a base64 ed25519 public key.
func ParseKey(b64 string) (ed25519.PublicKey, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil || len(k) != ed25519.PublicKeySize {
		return nil, errors.New("the rules key is not a base64 ed25519 public key")
	}
	return ed25519.PublicKey(k), nil
}

// Open verifies data against key and checks every rules file in it; the
// error says what is wrong and that nothing was changed.
func Open(data []byte, key ed25519.PublicKey) (Payload, error) {
	var b Bundle
	if err := json.Unmarshal(data, &b); err != nil {
		return Payload{}, refuse("this is not a rules bundle (%v)", firstLine(err.Error()))
	}
	if b.Payload == "" {
		return Payload{}, refuse("this is not a rules bundle (no payload)")
	}
	if b.Signature == "" {
		return Payload{}, refuse("the rules bundle is not signed")
	}
	payload, err := base64.StdEncoding.DecodeString(b.Payload)
	if err != nil {
		return Payload{}, refuse("the rules bundle's payload is not base64")
	}
	sig, err := base64.StdEncoding.DecodeString(b.Signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Payload{}, refuse("the rules bundle's signature is malformed")
	}
	if !ed25519.Verify(key, payload, sig) {
		return Payload{}, refuse("the rules bundle's signature does not match osFoundry's rules key; it was not published by osFoundry or was changed on the way")
	}
	var p Payload
	if err := json.Unmarshal(payload, &p); err != nil {
		return Payload{}, refuse("the signed payload is not valid (%v)", firstLine(err.Error()))
	}
	if p.Format != Format {
		return Payload{}, refuse("the rules bundle has format %d; this osFoundry reads format %d, update the app", p.Format, Format)
	}
	if p.Expires != "" {
		if _, err := time.Parse(time.RFC3339, p.Expires); err != nil {
			return Payload{}, refuse("the rules bundle's expiry %q is not an RFC 3339 time", p.Expires)
		}
	}
	if len(p.Files) == 0 {
		return Payload{}, refuse("the rules bundle holds no rules files")
	}
	if len(p.Files) > maxFiles {
		return Payload{}, refuse("the rules bundle holds %d files, more than %d", len(p.Files), maxFiles)
	}
	for _, n := range p.Names() {
		if err := detect.CheckFile(n, []byte(p.Files[n])); err != nil {
			return Payload{}, refuse("%v", err)
		}
	}
	return p, nil
}

// Sign makes a bundle of p with the private key priv (what `osfoundry rules
// sign` writes). It checks the files first: a bundle the app would refuse
// is never signed.
func Sign(p Payload, priv ed25519.PrivateKey) ([]byte, error) {
	if p.Format == 0 {
		p.Format = Format
	}
	for _, n := range p.Names() {
		if err := detect.CheckFile(n, []byte(p.Files[n])); err != nil {
			return nil, fmt.Errorf("checking the rules before signing: %w", err)
		}
	}
	if len(p.Files) == 0 {
		return nil, errors.New("no rules files to sign")
	}
	if _, err := ParseVersion(p.Version); err != nil || strings.TrimSpace(p.Version) == "" {
		return nil, fmt.Errorf("a bundle needs a version of dotted numbers greater than the last one published, like 2026.12.01 (got %q)", p.Version)
	}
	if p.Expires == "" {
		return nil, errors.New("a bundle needs an expiry (RFC 3339), after which the app refuses it")
	}
	if _, err := time.Parse(time.RFC3339, p.Expires); err != nil {
		return nil, fmt.Errorf("the expiry %q is not an RFC 3339 time like 2027-06-01T00:00:00Z", p.Expires)
	}
	payload, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encoding the payload: %w", err)
	}
	b := Bundle{
		Payload:   base64.StdEncoding.EncodeToString(payload),
		Signature: base64.StdEncoding.EncodeToString(ed25519.Sign(priv, payload)),
	}
	out, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding the bundle: %w", err)
	}
	return append(out, '\n'), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
