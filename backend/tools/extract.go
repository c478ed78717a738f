package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/osfoundry/desktop/backend/lazy"
)

const (
	extractMaxRead = 8 << 20   // bytes read from a file or a response
	extractMaxText = 200 << 10 // characters returned to the model
)

// ExtractContentTool is extract_content: text of a local file inside the
// run's folder or, when web is non-nil (network allowed), of a URL. Pass
// NewWebClient() for web, or nil to keep the run offline.
func ExtractContentTool(web *http.Client) Tool {
	return Tool{
		Meta: Meta{
			Name:        "extract_content",
			Description: "Extract readable text from a file in this run's folder (text, Markdown, code, JSON, HTML) or from an http(s) URL when network access is allowed.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{` +
				`"source":{"type":"string","description":"file path relative to the run's folder, or an http(s) URL"}},` +
				`"required":["source"]}`),
			ReadOnly: true, Scope: ScopeRead, Unattended: true,
		},
		Handler: func(ctx context.Context, c Call) (Result, error) {
			var a struct {
				Source string `json:"source"`
			}
			if msg := decodeArgs(c.Args, &a); msg != "" {
				return ErrorResult(msg), nil
			}
			src := strings.TrimSpace(a.Source)
			if isURL(src) {
				if web == nil {
					return ErrorResult("network access is off for this run, so " + src + " cannot be fetched; extract_content can read files inside the run's folder"), nil
				}
				return extractURL(ctx, web, src), nil
			}
			return extractFile(c.Folder, src), nil
		},
	}
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	// "C:\x" parses with scheme "c": a path, not a URL.
	return err == nil && len(u.Scheme) > 1 && strings.Contains(s, "://")
}

func extractFile(folder, p string) Result {
	real, msg := insideFolder(folder, p)
	if msg != "" {
		return ErrorResult(msg)
	}
	f, err := os.Open(real)
	if err != nil {
		return ErrorResult("cannot open " + p + ": " + err.Error())
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ErrorResult(p + " is not a regular file; pass a file, not a folder")
	}
	data, err := io.ReadAll(io.LimitReader(f, extractMaxRead))
	if err != nil {
		return ErrorResult("cannot read " + p + ": " + err.Error())
	}
	ext := strings.ToLower(filepath.Ext(real))
	return toText(p, data, ext == ".html" || ext == ".htm")
}

func extractURL(ctx context.Context, web *http.Client, src string) Result {
	u, _ := url.Parse(src)
	if u.Scheme != "http" && u.Scheme != "https" {
		return ErrorResult("only http and https URLs can be fetched, not " + u.Scheme)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
	if err != nil {
		return ErrorResult("invalid URL: " + err.Error())
	}
	req.Header.Set("Accept", "text/html, text/plain, text/markdown, application/json;q=0.9, */*;q=0.1")
	resp, err := web.Do(req)
	if err != nil {
		return ErrorResult("fetching " + src + " failed: " + err.Error())
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return ErrorResult(fmt.Sprintf("fetching %s: HTTP %d", src, resp.StatusCode))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, extractMaxRead))
	if err != nil {
		return ErrorResult("reading " + src + ": " + err.Error())
	}
	ct := strings.ToLower(resp.Header.Get("Content-Type"))
	return toText(src, data, strings.Contains(ct, "html"))
}

var (
	reDropBlocks = lazy.Regexp(`(?is)<(script|style|noscript|template|svg|head)\b.*?</(script|style|noscript|template|svg|head)\s*>`)
	reComments   = lazy.Regexp(`(?s)<!--.*?-->`)
	reBlockTags  = lazy.Regexp(`(?i)<\s*(br|/p|/div|/li|/h[1-6]|/tr|/section|/article|/header|/footer|hr)\b[^>]*>`)
	reTags       = lazy.Regexp(`(?s)<[^>]*>`)
	reBlankRuns  = lazy.Regexp(`\n[ \t]*(\n[ \t]*)+`)
	reSpaceRuns  = lazy.Regexp(`[ \t\f\v]+`)
)

// toText turns bytes into model-readable text: HTML loses its markup,
// binary content is refused rather than dumped.
func toText(name string, data []byte, isHTML bool) Result {
	head := data[:min(len(data), 8000)]
	if isBinary(head) || !utf8.Valid(trimPartialRune(head)) {
		return ErrorResult(name + " is a binary file; extract_content reads text, Markdown, code, JSON and HTML")
	}
	if !isHTML {
		t := bytes.TrimSpace(head)
		isHTML = bytes.HasPrefix(bytes.ToLower(t), []byte("<!doctype html")) || bytes.HasPrefix(bytes.ToLower(t), []byte("<html"))
	}
	s := string(data)
	if isHTML {
		s = reComments().ReplaceAllString(s, "")
		s = reDropBlocks().ReplaceAllString(s, "")
		s = reBlockTags().ReplaceAllString(s, "\n")
		s = reTags().ReplaceAllString(s, " ")
		s = html.UnescapeString(s)
		s = reSpaceRuns().ReplaceAllString(s, " ")
		s = reBlankRuns().ReplaceAllString(s, "\n\n")
	}
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	truncated := false
	if len(s) > extractMaxText {
		s, truncated = strings.ToValidUTF8(s[:extractMaxText], ""), true
	}
	if truncated {
		s += "\n\n[truncated: only the first 200 KB are shown]"
	}
	return Result{Text: s}
}

// trimPartialRune drops a rune cut in half at the end of a prefix.
func trimPartialRune(b []byte) []byte {
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return b
}

// ErrPrivateAddress is returned when a fetch would reach the machine itself
// or the local network: a model must not use extract_content to probe the
// user's services (the bridge, a router page, cloud metadata).
var ErrPrivateAddress = errors.New("refusing to fetch a loopback, private or link-local address")

// NewWebClient returns the HTTP client extract_content uses when the
// network is allowed: bounded in time, public addresses only.
func NewWebClient() *http.Client {
	d := &net.Dialer{
		Timeout: 10 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip := net.ParseIP(host)
			if ip == nil || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() ||
				ip.IsLinkLocalMulticast() || ip.IsUnspecified() || ip.IsMulticast() {
				return fmt.Errorf("dialing %s: %w", address, ErrPrivateAddress)
			}
			return nil
		},
	}
	tr := &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: 10 * time.Second, Proxy: nil}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}
