// Package teamconfig is the team server's configuration: its flags, the
// environment variables behind them, and the checks that say what to fix.
// It imports no database driver and no metrics library, so the command
// line's help pages (linked into the window app too) can show the flags
// without linking the server.
package teamconfig

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultListen is where the server listens unless told otherwise:
// loopback, for a reverse proxy on the same machine.
const DefaultListen = "127.0.0.1:8780"

// Config is what one server process needs to run.
type Config struct {
	DatabaseURL      string
	PublicURL        string // origin people and assistants reach, e.g. https://osfoundry.example.com
	Listen           string // host:port
	OIDCIssuer       string
	OIDCClientID     string
	OIDCClientSecret string        // from the environment or a file, never a flag
	DrainDelay       time.Duration // after SIGTERM: /readyz answers 503 while still accepting
	DrainTimeout     time.Duration // bound on finishing in-flight requests
	// TrustedProxies are balancers on other machines (IP addresses or
	// CIDR prefixes) whose X-Forwarded-For names the client; a proxy on
	// loopback is always trusted. Rate limits count the client they name.
	TrustedProxies []string
}

// Redacted is c as a log line may show it: the database's host and name,
// never its password or a secret.
func (c Config) Redacted() map[string]string {
	m := map[string]string{"public_url": c.PublicURL, "listen": c.Listen, "oidc_issuer": c.OIDCIssuer,
		"oidc_client_id": c.OIDCClientID, "database": RedactURL(c.DatabaseURL),
		"trusted_proxies": strings.Join(c.TrustedProxies, ",")}
	if c.OIDCClientSecret != "" {
		m["oidc_client_secret"] = "set"
	}
	return m
}

// RedactURL shows a database URL without its password and query (which
// may carry one): postgres://user@host:5432/db.
func RedactURL(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Host == "" {
		return "(a connection string)"
	}
	r := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if u.User != nil {
		r.User = url.User(u.User.Username())
	}
	return r.String()
}

// env names, one per setting.
const (
	EnvDatabaseURL          = "OSF_DATABASE_URL"
	EnvPublicURL            = "OSF_PUBLIC_URL"
	EnvListen               = "OSF_LISTEN"
	EnvOIDCIssuer           = "OSF_OIDC_ISSUER"
	EnvOIDCClientID         = "OSF_OIDC_CLIENT_ID"
	EnvOIDCClientSecret     = "OSF_OIDC_CLIENT_SECRET"
	EnvOIDCClientSecretFile = "OSF_OIDC_CLIENT_SECRET_FILE"
	EnvDrainDelay           = "OSF_DRAIN_DELAY"
	EnvDrainTimeout         = "OSF_DRAIN_TIMEOUT"
	EnvTrustedProxies       = "OSF_TRUSTED_PROXIES"
)

// flagEnv maps each flag to the environment variable used when the flag
// is not given.
var flagEnv = map[string]string{
	"database-url":            EnvDatabaseURL,
	"public-url":              EnvPublicURL,
	"listen":                  EnvListen,
	"oidc-issuer":             EnvOIDCIssuer,
	"oidc-client-id":          EnvOIDCClientID,
	"oidc-client-secret-file": EnvOIDCClientSecretFile,
	"drain-delay":             EnvDrainDelay,
	"drain-timeout":           EnvDrainTimeout,
	"trusted-proxy":           EnvTrustedProxies,
}

// FlagSet is the server's flags. Their defaults are fixed (never read from
// the environment), so a help page never prints a configured value.
func FlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.String("database-url", "", "PostgreSQL URL, e.g. postgres://osfoundry@db.example.com:5432/osfoundry (env "+EnvDatabaseURL+
		"; prefer the environment, a flag is visible in ps; a password may also come from PGPASSWORD or ~/.pgpass)")
	fs.String("public-url", "", "origin people and assistants reach through your TLS proxy, e.g. https://osfoundry.example.com (env "+EnvPublicURL+")")
	fs.String("listen", DefaultListen, "address to listen on; loopback for a proxy on this machine, 0.0.0.0:8780 when the proxy is on another host (env "+EnvListen+")")
	fs.String("oidc-issuer", "", "OpenID Connect issuer people sign in with, e.g. https://accounts.google.com (env "+EnvOIDCIssuer+")")
	fs.String("oidc-client-id", "", "client ID registered at the OpenID Connect provider (env "+EnvOIDCClientID+")")
	fs.String("oidc-client-secret-file", "", "file holding the OpenID Connect client secret (env "+EnvOIDCClientSecretFile+
		", or the secret itself in "+EnvOIDCClientSecret+"; there is no flag for the secret, a flag is visible in ps)")
	fs.Duration("drain-delay", 0, "after SIGTERM, keep accepting with /readyz at 503 this long so a balancer that polls it stops first (env "+EnvDrainDelay+")")
	fs.String("trusted-proxy", "", "balancers on other machines whose X-Forwarded-For names the client, comma-separated IP addresses or CIDR prefixes, e.g. 10.0.0.5,10.1.0.0/24; a proxy on this machine is always trusted (env "+EnvTrustedProxies+")")
	fs.Duration("drain-timeout", 30*time.Second, "after SIGTERM, how long in-flight requests may take to finish (env "+EnvDrainTimeout+")")
	return fs
}

// Source is where Load reads what flags do not say.
type Source struct {
	Getenv   func(string) string
	ReadFile func(string) ([]byte, error)
}

// OS is the process's environment and file system.
var OS = Source{Getenv: os.Getenv, ReadFile: os.ReadFile}

// Load parses args over the environment (a flag wins over its variable)
// and checks the result. Its error lists every problem, one a line, each
// saying what to fix.
func Load(fs *flag.FlagSet, args []string, src Source) (Config, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if n := strings.TrimLeft(strings.SplitN(a, "=", 2)[0], "-"); n == "oidc-client-secret" && strings.HasPrefix(a, "-") {
			return Config{}, fmt.Errorf("the OpenID Connect client secret is not a flag (every user of this machine can read flags in ps): set %s, or put it in a file and pass --oidc-client-secret-file", EnvOIDCClientSecret)
		}
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q: every setting is a --flag or an environment variable", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var errs []error
	get := func(name string) string {
		if !set[name] {
			if v := src.Getenv(flagEnv[name]); v != "" {
				if err := fs.Set(name, v); err != nil {
					errs = append(errs, fmt.Errorf("%s=%q: %v", flagEnv[name], v, err))
				}
			}
		}
		return fs.Lookup(name).Value.String()
	}
	c := Config{
		DatabaseURL:  strings.TrimSpace(get("database-url")),
		PublicURL:    strings.TrimRight(strings.TrimSpace(get("public-url")), "/"),
		Listen:       strings.TrimSpace(get("listen")),
		OIDCIssuer:   strings.TrimRight(strings.TrimSpace(get("oidc-issuer")), "/"),
		OIDCClientID: strings.TrimSpace(get("oidc-client-id")),
	}
	for _, p := range strings.Split(get("trusted-proxy"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.TrustedProxies = append(c.TrustedProxies, p)
		}
	}
	c.DrainDelay, _ = time.ParseDuration(get("drain-delay"))
	c.DrainTimeout, _ = time.ParseDuration(get("drain-timeout"))
	c.OIDCClientSecret = src.Getenv(EnvOIDCClientSecret)
	if path := get("oidc-client-secret-file"); path != "" {
		if c.OIDCClientSecret != "" {
			errs = append(errs, fmt.Errorf("the client secret is given twice (%s and a secret file): keep one", EnvOIDCClientSecret))
		}
		b, err := src.ReadFile(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("reading the OpenID Connect client secret file: %v: check the path and that this user may read it", err))
		}
		c.OIDCClientSecret = strings.TrimSpace(string(b))
		if err == nil && c.OIDCClientSecret == "" {
			errs = append(errs, fmt.Errorf("the client secret file %s is empty: put the secret the provider gave you in it", path))
		}
	}
	errs = append(errs, c.Check()...)
	return c, errors.Join(errs...)
}

// Check lists what is wrong with c, each error saying what to fix.
func (c Config) Check() []error {
	var errs []error
	if c.DatabaseURL == "" {
		errs = append(errs, fmt.Errorf("no database: set %s (or --database-url) to a PostgreSQL URL like postgres://osfoundry@db.example.com:5432/osfoundry", EnvDatabaseURL))
	} else if u, err := url.Parse(c.DatabaseURL); strings.Contains(c.DatabaseURL, "://") && (err != nil || u.Scheme != "postgres" && u.Scheme != "postgresql") {
		errs = append(errs, fmt.Errorf("the database URL %s is not a PostgreSQL URL: it starts with postgres:// (or is a key=value connection string)", RedactURL(c.DatabaseURL)))
	}
	if c.PublicURL == "" {
		errs = append(errs, fmt.Errorf("no public URL: set %s (or --public-url) to the https:// origin your proxy serves, e.g. https://osfoundry.example.com", EnvPublicURL))
	} else if err := checkOrigin(c.PublicURL); err != nil {
		errs = append(errs, fmt.Errorf("the public URL %q %v", c.PublicURL, err))
	}
	if err := checkListen(c.Listen); err != nil {
		errs = append(errs, err)
	}
	switch {
	case c.OIDCIssuer != "":
		if err := checkIssuer(c.OIDCIssuer); err != nil {
			errs = append(errs, fmt.Errorf("the OpenID Connect issuer %q %v", c.OIDCIssuer, err))
		}
		if c.OIDCClientID == "" {
			errs = append(errs, fmt.Errorf("an OpenID Connect issuer needs its client ID: set %s (or --oidc-client-id) to the ID the provider gave this server", EnvOIDCClientID))
		}
	case c.OIDCClientID != "" || c.OIDCClientSecret != "":
		errs = append(errs, fmt.Errorf("an OpenID Connect client without an issuer: set %s (or --oidc-issuer) to the provider's issuer URL", EnvOIDCIssuer))
	}
	for _, p := range c.TrustedProxies {
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				errs = append(errs, fmt.Errorf("the trusted proxy %q is not an IP address or CIDR prefix: give the balancer's address, e.g. 10.0.0.5 or 10.1.0.0/24", p))
			}
		}
	}
	if c.DrainDelay < 0 || c.DrainTimeout <= 0 {
		errs = append(errs, errors.New("the drain delay must be 0 or more and the drain timeout more than 0, e.g. --drain-timeout 30s"))
	}
	return errs
}

// checkOrigin accepts https://host[:port], or http:// on a loopback host
// (a test, or a proxy on the same machine that the browser reaches as
// localhost).
func checkOrigin(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http" {
		return errors.New("is not a URL: give the origin, e.g. https://osfoundry.example.com")
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("has more than an origin: give only scheme and host, e.g. %s://%s", u.Scheme, u.Host)
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return fmt.Errorf("is plain http on a public host: assistants and sign-in need https; put a TLS proxy in front and use https://%s", u.Host)
	}
	return nil
}

func checkIssuer(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Scheme != "https" && u.Scheme != "http" {
		return errors.New("is not a URL: give the issuer the provider documents, e.g. https://accounts.google.com")
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return errors.New("is plain http: OpenID Connect providers are reached over https")
	}
	return nil
}

func checkListen(s string) error {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("the listen address %q is not host:port: use e.g. %s, or 0.0.0.0:8780 for a proxy on another host", s, DefaultListen)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("the listen address %q has no valid port: use e.g. %s", s, DefaultListen)
	}
	if host != "" && net.ParseIP(host) == nil && host != "localhost" {
		return fmt.Errorf("the listen address %q names a host: give an IP address (127.0.0.1, 0.0.0.0, ::) and a port", s)
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
