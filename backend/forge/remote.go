package forge

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Kind is a forge's software.
type Kind string

const (
	GitHub Kind = "github"
	GitLab Kind = "gitlab"
	Gitea  Kind = "gitea" // Gitea and Forgejo share the API
)

// Label is the forge's name for the screen.
func (k Kind) Label() string {
	switch k {
	case GitHub:
		return "GitHub"
	case GitLab:
		return "GitLab"
	case Gitea:
		return "Gitea"
	}
	return string(k)
}

// Request is the forge's word for a pull request.
func (k Kind) Request() string {
	if k == GitLab {
		return "merge request"
	}
	return "pull request"
}

// Host is a self-hosted forge the person named: which software runs at
// Name (a host name, with :port when not the default) and, when its API is
// not at the usual place, the API's base URL.
type Host struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// API is the API's base URL ("" for the default: https://<name>/api/v3
	// for GitHub Enterprise, https://<name>/api/v4 for GitLab,
	// https://<name> for Gitea).
	API string `json:"api,omitempty"`
}

// knownHosts are the public forges.
var knownHosts = map[string]Host{
	"github.com":   {Name: "github.com", Kind: GitHub, API: "https://api.github.com/"},
	"gitlab.com":   {Name: "gitlab.com", Kind: GitLab, API: "https://gitlab.com/api/v4"},
	"codeberg.org": {Name: "codeberg.org", Kind: Gitea, API: "https://codeberg.org"},
	"gitea.com":    {Name: "gitea.com", Kind: Gitea, API: "https://gitea.com"},
}

// Repo is a repository on a forge, read from a git remote's URL.
type Repo struct {
	Host  Host   `json:"host"`
	Owner string `json:"owner"` // GitLab: the whole namespace (group/subgroup)
	Name  string `json:"name"`
	// Web is the repository's page, e.g. https://github.com/o/r.
	Web string `json:"web"`
	// Remote is the git remote's name and URL it was read from.
	Remote    string `json:"remote"`
	RemoteURL string `json:"remoteUrl"`
	// HTTP is true when the remote is reached over HTTP(S), where the push
	// needs the token; over SSH the person's own key pushes.
	HTTP bool `json:"http"`
}

// FullName is owner/name.
func (r Repo) FullName() string { return r.Owner + "/" + r.Name }

// ErrUnknownForge means the remote's host is not a forge this package
// knows; the person adds it (Settings → Forges) as GitHub, GitLab or Gitea.
var ErrUnknownForge = errors.New("unknown forge")

// parsed is a remote URL split into what matters here.
type parsed struct {
	scheme, host, path string // host keeps a non-default port
}

// parseRemote reads https://host/o/r(.git), ssh://git@host:22/o/r.git,
// git@host:o/r.git (scp-like) and http:// remotes.
func parseRemote(raw string) (parsed, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return parsed{}, errors.New("the remote has no URL")
	}
	if !strings.Contains(raw, "://") {
		// scp-like: [user@]host:path (a path with a colon before any slash)
		at := strings.LastIndex(raw, "@")
		rest := raw[at+1:]
		host, path, ok := strings.Cut(rest, ":")
		if !ok || host == "" || strings.Contains(host, "/") {
			return parsed{}, fmt.Errorf("remote %q is a local path, not a forge", raw)
		}
		return parsed{scheme: "ssh", host: strings.ToLower(host), path: path}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return parsed{}, fmt.Errorf("reading remote URL %q: %w", raw, err)
	}
	switch u.Scheme {
	case "https", "http", "ssh", "git+ssh":
	default:
		return parsed{}, fmt.Errorf("remote %q uses %s://, which is not a forge", raw, u.Scheme)
	}
	host := strings.ToLower(u.Hostname())
	// An SSH port is not the web port: it never names the host.
	if p := u.Port(); p != "" && (u.Scheme == "https" || u.Scheme == "http") {
		host += ":" + p
	}
	return parsed{scheme: u.Scheme, host: host, path: u.Path}, nil
}

// RepoFromRemote finds the forge and repository a remote URL points at.
// hosts are the person's self-hosted forges; they win over the public
// list so a person may point github.com at a proxy. ErrUnknownForge (with
// the host in the text) when neither lists the host.
func RepoFromRemote(remote, rawURL string, hosts []Host) (Repo, error) {
	p, err := parseRemote(rawURL)
	if err != nil {
		return Repo{}, err
	}
	h, ok := Host{}, false
	for _, c := range hosts {
		overSSH := p.scheme != "https" && p.scheme != "http"
		if strings.EqualFold(c.Name, p.host) || overSSH && strings.EqualFold(hostOnly(c.Name), p.host) {
			h, ok = c, true
			break
		}
	}
	if !ok {
		h, ok = knownHosts[p.host]
	}
	if !ok {
		return Repo{}, fmt.Errorf("%w: %s is not a forge osFoundry knows; add it under Settings → Forges as GitHub, GitLab or Gitea", ErrUnknownForge, p.host)
	}
	path := strings.Trim(strings.TrimSuffix(strings.Trim(p.path, "/"), ".git"), "/")
	i := strings.LastIndex(path, "/")
	if i <= 0 || i == len(path)-1 {
		return Repo{}, fmt.Errorf("remote %q does not name an owner and a repository", rawURL)
	}
	owner, name := path[:i], path[i+1:]
	if h.Kind != GitLab && strings.Contains(owner, "/") {
		// GitHub and Gitea have one level of owner; a subpath is the
		// forge's own prefix (Gitea served under /git/).
		owner = owner[strings.LastIndex(owner, "/")+1:]
	}
	web := "https://" + h.Name
	if p.scheme == "http" {
		web = "http://" + h.Name
	}
	if h.API == "" {
		h.API = defaultAPI(h.Kind, web+"/"+strings.TrimSuffix(path, owner+"/"+name))
	}
	return Repo{Host: h, Owner: owner, Name: name, Web: web + "/" + path, Remote: remote, RemoteURL: rawURL,
		HTTP: p.scheme == "https" || p.scheme == "http"}, nil
}

func hostOnly(name string) string {
	h, _, _ := strings.Cut(name, ":")
	return h
}

// defaultAPI is where a self-hosted forge's API lives when the person did
// not say.
// base is the forge's web root, with its path prefix if it has one.
func defaultAPI(k Kind, base string) string {
	base = strings.TrimSuffix(base, "/")
	switch k {
	case GitHub:
		return base + "/api/v3/"
	case GitLab:
		return base + "/api/v4"
	}
	return base
}
