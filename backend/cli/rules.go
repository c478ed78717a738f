package cli

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/osfoundry/desktop/backend/rulesupdate"
)

// rulesPublicKey is the key a rules bundle must be signed with; tests put
// their own here (never an environment variable: the trust key is not
// something a process's environment may change).
var rulesPublicKey = rulesupdate.ProductionPublicKey

func init() {
	c := &Command{
		Name:  "rules",
		Usage: "update [--from URL] | status | sign --key FILE --version V [--expires DATE] [-o OUT] DIR|FILE.toml... | keygen -o FILE",
		Help:  "Agent-detection rules without a new release: install a signed rules bundle into ~/.osfoundry/agent-detection, show which one is installed, or (maintainers) sign one.",
		Page: &Page{
			About: "A rules bundle is the rules/*.toml files signed with ed25519. update fetches one, checks its signature, " +
				"that it has not expired, that its version is newer than the one installed, and every rule in it; only then " +
				"does it replace ~/.osfoundry/agent-detection, and open panes use it at once. A bad bundle changes nothing.",
			Subs: []Sub{
				{Name: "update", Usage: "[--from URL]", About: "Fetch, check and install the newest signed rules bundle.",
					Flags: func() *flag.FlagSet { fs, _ := rulesUpdateFlags(); return fs }},
				{Name: "status", Usage: "", About: "Say which rules bundle is installed, from where and when, or that the built-in rules are in use."},
				{Name: "sign", Usage: "--key FILE --version V [--expires DATE] [-o OUT] DIR|FILE.toml...",
					About: "(Maintainers) check rules files exactly as the app will, then sign them into a bundle.",
					Flags: func() *flag.FlagSet { fs, _ := rulesSignFlags(); return fs }},
				{Name: "keygen", Usage: "-o FILE", About: "(Maintainers) make a new ed25519 signing key; its public half is printed.",
					Flags: func() *flag.FlagSet { fs, _ := rulesKeygenFlags(); return fs }},
			},
			Example: "osfoundry rules update\nosfoundry rules status",
			Docs:    "rules/README.md",
		},
	}
	c.Run = func(env *Env, args []string) int {
		if len(args) == 0 {
			return fail(env, c, "expected update, status, sign or keygen")
		}
		switch args[0] {
		case "update":
			return rulesUpdate(env, c, args[1:])
		case "status":
			return rulesStatus(env, c, args[1:])
		case "sign":
			return rulesSign(env, c, args[1:])
		case "keygen":
			return rulesKeygen(env, c, args[1:])
		}
		return fail(env, c, "unknown subcommand %q; expected update, status, sign or keygen", args[0])
	}
	register(c)
}

func rulesUpdateFlags() (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("rules update", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs, fs.String("from", rulesupdate.DefaultURL, "address of the rules bundle")
}

type rulesSignOpts struct{ keyFile, version, expires, out string }

func rulesSignFlags() (*flag.FlagSet, *rulesSignOpts) {
	var o rulesSignOpts
	fs := flag.NewFlagSet("rules sign", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.keyFile, "key", "", "file holding the base64 ed25519 private key")
	fs.StringVar(&o.version, "version", "", "the bundle's version, e.g. 2026.12.01: greater than the last one published")
	fs.StringVar(&o.expires, "expires", "", "when the bundle stops being installable: 2027-06-01 or an RFC 3339 time (default: in 180 days)")
	fs.StringVar(&o.out, "o", "", "write the bundle here (default: standard output)")
	return fs, &o
}

func rulesKeygenFlags() (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("rules keygen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs, fs.String("o", "", "write the private key here (created, never overwritten)")
}

func rulesUpdate(env *Env, c *Command, args []string) int {
	fs, from := rulesUpdateFlags()
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fail(env, c, "rules update takes only --from URL")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules update: finding your home folder:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	in, err := rulesupdate.Update(ctx, rulesupdate.Options{URL: *from, Home: home, Key: rulesPublicKey})
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules update:", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "Installed rules %s (%s) into %s.\n", in.Version, strings.Join(in.Files, ", "), in.Folder)
	if in.Previous != "" {
		fmt.Fprintf(env.Stdout, "The folder as it was is kept in %s.\n", in.Previous)
	}
	fmt.Fprintln(env.Stdout, "A running osFoundry applies them to its open panes at once.")
	return 0
}

func rulesStatus(env *Env, c *Command, args []string) int {
	if len(args) > 0 {
		return fail(env, c, "rules status takes no arguments")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules status: finding your home folder:", err)
		return 1
	}
	in, ok, err := rulesupdate.ReadInstalled(home)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules status:", err)
		return 1
	}
	if !ok {
		fmt.Fprintf(env.Stdout, "No rules bundle installed: the rules built into this osFoundry, with any of your own files in %s.\n", in.Folder)
		return 0
	}
	fmt.Fprintf(env.Stdout, "Rules %s from %s, installed %s: %s (in %s)\n", in.Version, in.Source, in.InstalledAt, strings.Join(in.Files, ", "), in.Folder)
	return 0
}

// rulesSign is the maintainers' side: it checks the files exactly as the
// app will, then signs them.
func rulesSign(env *Env, c *Command, args []string) int {
	fs, o := rulesSignFlags()
	keyFile, version, expires, out := &o.keyFile, &o.version, &o.expires, &o.out
	if err := fs.Parse(args); err != nil {
		return fail(env, c, "%v", err)
	}
	if *keyFile == "" || *version == "" || fs.NArg() == 0 {
		return fail(env, c, "rules sign needs --key FILE, --version V and the rules folder or files")
	}
	priv, err := readPrivateKey(*keyFile)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules sign:", err)
		return 1
	}
	files, err := rulesFiles(fs.Args())
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules sign:", err)
		return 1
	}
	exp, err := bundleExpiry(*expires, time.Now())
	if err != nil {
		return fail(env, c, "%v", err)
	}
	b, err := rulesupdate.Sign(rulesupdate.Payload{Version: *version, Expires: exp, Files: files}, priv)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules sign:", err)
		return 1
	}
	if *out == "" {
		env.Stdout.Write(b)
		return 0
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules sign: writing the bundle:", err)
		return 1
	}
	fmt.Fprintf(env.Stderr, "Signed %d rules files as %s, expiring %s, into %s.\n", len(files), *version, exp, *out)
	return 0
}

// defaultBundleLife is how long a bundle signed without --expires stays
// installable: long enough between releases of rules, short enough that
// a mirror serving a stale copy is noticed.
const defaultBundleLife = 180 * 24 * time.Hour

// bundleExpiry reads --expires: a date (the end of that day, UTC) or an
// RFC 3339 time; "" is defaultBundleLife from now.
func bundleExpiry(v string, now time.Time) (string, error) {
	if v == "" {
		return now.Add(defaultBundleLife).UTC().Format(time.RFC3339), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		v = t.Add(24*time.Hour - time.Second).Format(time.RFC3339)
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return "", fmt.Errorf("--expires %q: give a date like 2027-06-01 or an RFC 3339 time", v)
	}
	if !t.After(now) {
		return "", fmt.Errorf("--expires %s is not in the future", v)
	}
	return t.UTC().Format(time.RFC3339), nil
}

func rulesKeygen(env *Env, c *Command, args []string) int {
	fs, out := rulesKeygenFlags()
	if err := fs.Parse(args); err != nil || *out == "" {
		return fail(env, c, "rules keygen needs -o FILE")
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules keygen:", err)
		return 1
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules keygen: creating the key file:", err)
		return 1
	}
	_, err = f.WriteString(base64.StdEncoding.EncodeToString(priv) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "osfoundry rules keygen: writing the key file:", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "%s\n", base64.StdEncoding.EncodeToString(pub))
	fmt.Fprintf(env.Stderr, "Private key in %s; the line above is its public key (rulesupdate.ProductionPublicKey).\n", *out)
	return 0
}

func readPrivateKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the key: %w", err)
	}
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	switch {
	case err == nil && len(k) == ed25519.PrivateKeySize:
		return ed25519.PrivateKey(k), nil
	case err == nil && len(k) == ed25519.SeedSize:
		return ed25519.NewKeyFromSeed(k), nil
	}
	return nil, fmt.Errorf("%s does not hold a base64 ed25519 private key (make one with `osfoundry rules keygen -o FILE`)", path)
}

// rulesFiles reads the .toml files named, or every .toml in a folder.
func rulesFiles(args []string) (map[string]string, error) {
	files := map[string]string{}
	add := func(p string) error {
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("reading %s: %w", p, err)
		}
		files[filepath.Base(p)] = string(b)
		return nil
	}
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", a, err)
		}
		if !st.IsDir() {
			if err := add(a); err != nil {
				return nil, err
			}
			continue
		}
		ms, _ := filepath.Glob(filepath.Join(a, "*.toml"))
		if len(ms) == 0 {
			return nil, fmt.Errorf("%s holds no .toml rules files", a)
		}
		for _, m := range ms {
			if err := add(m); err != nil {
				return nil, err
			}
		}
	}
	return files, nil
}
