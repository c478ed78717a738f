package teamconfig

import (
	"flag"
	"io/fs"
	"strings"
	"testing"
	"time"
)

func source(env map[string]string, files map[string]string) Source {
	return Source{
		Getenv: func(k string) string { return env[k] },
		ReadFile: func(p string) ([]byte, error) {
			if s, ok := files[p]; ok {
				return []byte(s), nil
			}
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		},
	}
}

var minimal = map[string]string{EnvDatabaseURL: "postgres://osf@db/osfoundry", EnvPublicURL: "https://team.example.com"}

func with(extra map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range minimal {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		env   map[string]string
		files map[string]string
		check func(t *testing.T, c Config)
		errs  []string // each must be in the error; none means no error
	}{
		{name: "defaults", env: minimal, check: func(t *testing.T, c Config) {
			if c.Listen != DefaultListen || c.DrainTimeout != 30*time.Second || c.DrainDelay != 0 {
				t.Errorf("%+v", c)
			}
		}},
		{name: "a flag wins over its variable", args: []string{"--listen", "0.0.0.0:9000", "--public-url=https://flag.example.com/"},
			env: with(map[string]string{EnvListen: "127.0.0.1:1"}), check: func(t *testing.T, c Config) {
				if c.Listen != "0.0.0.0:9000" || c.PublicURL != "https://flag.example.com" {
					t.Errorf("%+v", c)
				}
			}},
		{name: "trusted proxies from a flag", args: []string{"--trusted-proxy", " 10.0.0.5, 10.1.0.0/24 ,"}, env: minimal,
			check: func(t *testing.T, c Config) {
				if strings.Join(c.TrustedProxies, "|") != "10.0.0.5|10.1.0.0/24" {
					t.Errorf("%q", c.TrustedProxies)
				}
			}},
		{name: "a trusted proxy that is a name", env: with(map[string]string{EnvTrustedProxies: "lb.example.com"}),
			errs: []string{`the trusted proxy "lb.example.com" is not an IP address or CIDR prefix`}},
		{name: "secret from the environment", env: with(map[string]string{EnvOIDCIssuer: "https://idp.example.com/", EnvOIDCClientID: "c", EnvOIDCClientSecret: "s"}),
			check: func(t *testing.T, c Config) {
				if c.OIDCIssuer != "https://idp.example.com" || c.OIDCClientSecret != "s" {
					t.Errorf("%+v", c)
				}
			}},
		{name: "secret from a file", args: []string{"--oidc-issuer", "https://idp.example.com", "--oidc-client-id", "c", "--oidc-client-secret-file", "/run/secret"},
			env: minimal, files: map[string]string{"/run/secret": "s3\n"}, check: func(t *testing.T, c Config) {
				if c.OIDCClientSecret != "s3" {
					t.Errorf("secret %q", c.OIDCClientSecret)
				}
			}},
		{name: "the secret as a flag", args: []string{"--oidc-client-secret=s"}, env: minimal, errs: []string{"is not a flag", EnvOIDCClientSecret}},
		{name: "the secret given twice", args: []string{"--oidc-client-secret-file", "/run/secret"},
			env:   with(map[string]string{EnvOIDCIssuer: "https://idp.example.com", EnvOIDCClientID: "c", EnvOIDCClientSecret: "s"}),
			files: map[string]string{"/run/secret": "s"}, errs: []string{"given twice"}},
		{name: "a missing secret file", args: []string{"--oidc-client-secret-file", "/nope"},
			env: with(map[string]string{EnvOIDCIssuer: "https://idp.example.com", EnvOIDCClientID: "c"}), errs: []string{"reading the OpenID Connect client secret file", "/nope"}},
		{name: "nothing set", errs: []string{"no database: set OSF_DATABASE_URL", "no public URL: set OSF_PUBLIC_URL"}},
		{name: "not a postgres URL", env: with(map[string]string{EnvDatabaseURL: "mysql://u:pw@h/db"}), errs: []string{"is not a PostgreSQL URL"}},
		{name: "a key=value connection string", env: with(map[string]string{EnvDatabaseURL: "host=/var/run/postgresql dbname=osfoundry"})},
		{name: "plain http on a public host", env: with(map[string]string{EnvPublicURL: "http://team.example.com"}), errs: []string{"use https://team.example.com"}},
		{name: "http on loopback", env: with(map[string]string{EnvPublicURL: "http://127.0.0.1:8780"})},
		{name: "a path in the public URL", env: with(map[string]string{EnvPublicURL: "https://team.example.com/osf"}), errs: []string{"more than an origin"}},
		{name: "listen without a host", env: with(map[string]string{EnvListen: "8780"}), errs: []string{"is not host:port"}},
		{name: "listen on a name", env: with(map[string]string{EnvListen: "team.example.com:8780"}), errs: []string{"give an IP address"}},
		{name: "an issuer without a client", env: with(map[string]string{EnvOIDCIssuer: "https://idp.example.com"}), errs: []string{"needs its client ID"}},
		{name: "a client without an issuer", env: with(map[string]string{EnvOIDCClientID: "c"}), errs: []string{"without an issuer"}},
		{name: "a bad duration", env: with(map[string]string{EnvDrainTimeout: "soon"}), errs: []string{"OSF_DRAIN_TIMEOUT"}},
		{name: "a stray argument", args: []string{"now"}, env: minimal, errs: []string{`unexpected argument "now"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(FlagSet("team-server"), tt.args, source(tt.env, tt.files))
			if len(tt.errs) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if tt.check != nil {
					tt.check(t, c)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; want %q", tt.errs)
			}
			for _, want := range tt.errs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q:\n%v", want, err)
				}
			}
		})
	}
}

// The help page shows defaults, never what the environment holds.
func TestFlagDefaultsIgnoreTheEnvironment(t *testing.T) {
	t.Setenv(EnvDatabaseURL, "postgres://osf:pw@db/x")
	FlagSet("x").VisitAll(func(f *flag.Flag) {
		if strings.Contains(f.DefValue, "pw") {
			t.Errorf("--%s defaults to %q", f.Name, f.DefValue)
		}
	})
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://osf:pw@db:5432/osfoundry?sslmode=require&password=pw": "postgres://osf@db:5432/osfoundry",
		"host=db password=pw": "(a connection string)",
	} {
		if got := RedactURL(in); got != want || strings.Contains(got, "pw") {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
