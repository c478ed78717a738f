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

	"github.com/osfoundry/desktop/backend/rulesupdate"
)

// rulesPublicKey is the key a rules bundle must be signed with; tests put
// their own here (never an environment variable: the trust key is not
// something a process's environment may change).
var rulesPublicKey = rulesupdate.ProductionPublicKey

func init() {
	c := &Command{
		Name:  "rules",
		Usage: "update [--from URL] | status | sign --key FILE --version V [-o OUT] DIR|FILE.toml... | keygen -o FILE",
		Help:  "Agent-detection rules without a new release: install a signed rules bundle into ~/.osfoundry/agent-detection, show which one is installed, or (maintainers) sign one.",
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

func rulesUpdate(env *Env, c *Command, args []string) int {
	fs := flag.NewFlagSet("rules update", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	from := fs.String("from", rulesupdate.DefaultURL, "address of the rules bundle")
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
	fs := flag.NewFlagSet("rules sign", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	keyFile := fs.String("key", "", "file holding the base64 ed25519 private key")
	version := fs.String("version", "", "the bundle's version, e.g. 2026.12.01")
	out := fs.String("o", "", "write the bundle here (default: standard output)")
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
	b, err := rulesupdate.Sign(rulesupdate.Payload{Version: *version, Files: files}, priv)
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
	fmt.Fprintf(env.Stderr, "Signed %d rules files as %s into %s.\n", len(files), *version, *out)
	return 0
}

func rulesKeygen(env *Env, c *Command, args []string) int {
	fs := flag.NewFlagSet("rules keygen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "", "write the private key here (created, never overwritten)")
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
