package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

func init() {
	c := &Command{Name: "serve", Usage: "[--addr 127.0.0.1:8765] [--public-url https://host]",
		Help: "Serve the Connected agents endpoint (OAuth-protected MCP) without a window; prints the server address and an owner sign-in link.",
		Page: &Page{
			About: "The same endpoint the window serves for Connected agents (Claude, ChatGPT, Codex CLI or any MCP client): OAuth " +
				"discovery, dynamic registration and PKCE, with access checked on every call. It prints the server address and " +
				"a single-use owner sign-in link that lasts 24 hours (`osfoundry connections signin-link` makes more), and serves " +
				"until Ctrl-C or SIGTERM.",
			Flags:   func() *flag.FlagSet { fs, _, _ := serveFlags(); return fs },
			Example: "osfoundry serve --addr 127.0.0.1:8765",
			Docs:    "README.md",
		}}
	c.Run = func(env *Env, args []string) int { return runServe(env, c, args) }
	register(c)
}

func runServe(env *Env, c *Command, args []string) int {
	fs, addr, public := serveFlags()
	if err := fs.Parse(args); err != nil {
		return fail(env, c, "%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	svc, db, dir, err := openConnect(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry serve: %v\n", err)
		return 1
	}
	defer db.Close()
	srv, err := connect.NewServer(svc, connect.ServerConfig{PublicURL: *public})
	if err != nil {
		return fail(env, c, "%v", err)
	}
	if err := srv.Start(*addr); err != nil {
		return fail(env, c, "%v", err)
	}
	urlFile := filepath.Join(dir, serverURLFile)
	os.WriteFile(urlFile, []byte(srv.BaseURL()+"\n"), 0o600)
	defer os.Remove(urlFile)
	// A headless server has nobody at a window: the first sign-in link
	// lasts a day; `osfoundry connections signin-link` mints more.
	link, err := srv.SignInURL(ctx, connect.OwnerID, 24*time.Hour)
	if err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(env.Stdout, "Server address: %s\n", srv.ResourceURL())
	fmt.Fprintf(env.Stdout, "Owner sign-in (single use, 24 h; open it in the browser that will approve assistants):\n  %s\n", link)
	fmt.Fprintln(env.Stdout, "Add the server in your assistant, e.g. `codex mcp add osfoundry --url "+srv.ResourceURL()+"` then `codex mcp login osfoundry`.")
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Close(sctx); err != nil {
		fmt.Fprintf(env.Stderr, "osfoundry serve: %v\n", err)
		return 1
	}
	return 0
}

func serveFlags() (fs *flag.FlagSet, addr, public *string) {
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr = fs.String("addr", connect.DefaultAddr, "listen address; loopback unless --public-url is set (behind a TLS proxy)")
	public = fs.String("public-url", "", "origin remote assistants reach, e.g. https://osfoundry.example.com")
	return fs, addr, public
}
