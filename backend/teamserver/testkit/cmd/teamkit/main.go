// Command teamkit starts the team server of the Go harness for the browser
// end-to-end suite: a throw-away PostgreSQL cluster, two replicas of the
// real `osfoundry team-server`, haproxy with TLS from a throw-away CA, and
// the zitadel example OIDC provider; alice owns the team's workspace and
// bob is an editor in it. Optionally (-secret-service SEED) a private
// D-Bus session with gnome-keyring's Secret Service, unlocked with a
// throw-away password.
//
// It prints one JSON line (Info) on standard output, then reads commands,
// one a line, on standard input and answers each with "ok COMMAND":
//
//	offline  the server cannot be reached: open connections are cut and new
//	         ones closed at once (a gate in front of the balancer)
//	online   the server answers again
//
// End of input, SIGINT or SIGTERM stop everything it started. It is a
// test kit: no shipped binary imports it (make vet checks).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"

	"github.com/osfoundry/desktop/backend/teamserver/testkit/teamtest"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
	"github.com/osfoundry/desktop/backend/testkit/secretservice"
)

// Info is what the kit prints once everything serves.
type Info struct {
	URL       string `json:"url"`       // the team server, as people and desktops reach it
	CA        string `json:"ca"`        // the throw-away CA's certificate (PEM)
	OP        string `json:"op"`        // the OIDC provider's issuer
	Workspace string `json:"workspace"` // the team's workspace (alice owns it, bob edits)
	// People are the provider's accounts: name → password.
	People map[string]string `json:"people"`
	// SecretService is the private session bus's address ("" without
	// -secret-service).
	SecretService string `json:"secretService"`
}

func main() {
	seed := flag.String("secret-service", "", "start a private D-Bus session with gnome-keyring's Secret Service, its login keyring from this seed file")
	flag.Parse()
	s := &pgtest.Session{Name: "teamkit"}
	defer s.Close()
	s.Cleanup(teamtest.RemoveBinary)
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-stop
		s.Close()
		os.Exit(0)
	}()

	fmt.Fprintln(os.Stderr, "teamkit: building osfoundry, starting PostgreSQL, two replicas, haproxy and the provider…")
	teamtest.Binary(s)
	pg, err := pgtest.Start()
	if err != nil {
		s.Fatal(err)
	}
	s.Cleanup(pg.Remove)
	info, g := startTeam(s, pg.Database(s))
	if *seed != "" {
		info.SecretService = secretservice.Start(s, *seed)
	}
	out, _ := json.Marshal(info)
	fmt.Println(string(out))

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch cmd := strings.TrimSpace(in.Text()); cmd {
		case "offline", "online":
			g.setBlocked(cmd == "offline")
			fmt.Println("ok " + cmd)
		case "":
		default:
			fmt.Printf("unknown command %q: offline or online\n", cmd)
		}
	}
}

// startTeam is teamtest.StartTeam with the gate in front of the balancer:
// the replicas' public URL is the gate's, so everything a browser or a
// desktop does goes through it.
func startTeam(s *pgtest.Session, db string) (Info, *gate) {
	lb := teamtest.NewBalancer(s)
	g, err := newGate(strings.TrimPrefix(lb.URL, "https://"))
	if err != nil {
		s.Fatal(err)
	}
	s.Cleanup(g.close)
	public := "https://" + g.addr()
	op := teamtest.StartProvider(s, public+"/auth/callback")
	env := append([]string{"OSF_DATABASE_URL=" + db, "OSF_PUBLIC_URL=" + public, "OSF_LISTEN=127.0.0.1:0"}, op.Env()...)
	r1 := teamtest.Start(s, env)
	r2 := teamtest.Start(s, env)
	lb.Start(s, r1.Addr, r2.Addr)
	link := regexp.MustCompile(`https://\S+/auth/bootstrap\?token=\S+`).FindString(r1.Stderr())
	if link == "" {
		s.Fatalf("the first replica printed no setup link:\n%s", r1.Stderr())
	}
	owner := lb.NewBrowser(op)
	page, err := owner.SignIn(link, "alice")
	if err != nil {
		s.Fatal(err)
	}
	m := regexp.MustCompile(`<code>([^<]+)</code>`).FindStringSubmatch(page.Body)
	if page.Code != http.StatusOK || m == nil {
		s.Fatalf("the setup link: %d at %s\n%s", page.Code, page.URL, page.Body)
	}
	ws := m[1]
	if err := owner.API("POST", public+"/api/workspaces/"+ws+"/members",
		map[string]any{"email": teamtest.People["bob"].Email, "role": "editor"}, nil); err != nil {
		s.Fatal(fmt.Errorf("making bob an editor: %w", err))
	}
	people := map[string]string{}
	for name, u := range teamtest.People {
		people[name] = u.Password
	}
	return Info{URL: public, CA: lb.CAFile, OP: op.URL, Workspace: ws, People: people}, g
}
