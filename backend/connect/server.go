package connect

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/osfoundry/desktop/backend/tools"
)

// Paths of the endpoint. The issuer is pathless: clients find the AS
// metadata at /.well-known/oauth-authorization-server.
const (
	ResourcePath  = "/mcp"
	prmPath       = "/.well-known/oauth-protected-resource"
	asmPath       = "/.well-known/oauth-authorization-server"
	authorizePath = "/oauth/authorize"
	tokenPath     = "/oauth/token"
	registerPath  = "/oauth/register"
	signInPath    = "/oauth/signin"
)

// Instructions is sent in initialize (docs/reference.md §6, exact).
const Instructions = "Use list_granted_resources first. Every Note edit must use the exact tab ID.\nLocal-only data is unavailable to cloud clients."

// ServerVersion is reported in initialize.
var ServerVersion = "0.1.0"

// ServerConfig configures the HTTP side.
type ServerConfig struct {
	// PublicURL is the origin clients reach (https://team.example.com) for a
	// headless team server behind TLS. Empty: the server is loopback-only
	// and its URLs follow the Host the client used (127.0.0.1 or localhost),
	// because the Go SDK client requires the metadata's resource to equal
	// the URL it connected to byte for byte.
	PublicURL string
	// AllowedOrigins are browser origins allowed to call the MCP endpoint
	// (a web-based MCP client). Requests without Origin are not browsers.
	AllowedOrigins []string
	// PurgeEvery is how often expired requests, codes, sessions, tokens and
	// unused registrations are dropped (default PurgeInterval).
	PurgeEvery time.Duration
	// RegisterPerMinute and AuthorizePerMinute cap dynamic registrations and
	// authorization requests per client address (0: the defaults; < 0: off).
	RegisterPerMinute, AuthorizePerMinute int
	// ReadTimeout, WriteTimeout and IdleTimeout bound one request's body,
	// its answer and a kept-alive connection (0: the defaults below).
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxConnsPerAddr caps open connections from one client address
	// (0: DefaultMaxConnsPerAddr).
	MaxConnsPerAddr int
	// MaxClients and MaxClientBytes bound all registrations together
	// (0: DefaultMaxClients, DefaultMaxClientBytes).
	MaxClients, MaxClientBytes int
	// TrustedProxies are the balancers in front of a public server on other
	// machines (addresses or CIDR prefixes): the rate limits count the
	// client address they forward in X-Forwarded-For. A proxy on loopback
	// is always trusted once PublicURL is set.
	TrustedProxies []string
	// People says who is signed in to approve a consent (nil: the owner's
	// sign-in links, OwnerSessions). The team server passes its OpenID
	// Connect sessions.
	People People
}

// PurgeInterval is how often a started server drops what has expired.
const PurgeInterval = time.Minute

// Server serves the MCP endpoint, the metadata, the authorization server
// and the consent page.
type Server struct {
	svc       *Service
	cfg       ServerConfig
	public    *url.URL
	mcp       http.Handler
	mux       *http.ServeMux
	mu        sync.Mutex
	http      *http.Server
	ln        net.Listener
	loopHosts []string
	regLim    *addrLimiter
	authLim   *addrLimiter
	people    People
	proxies   []netip.Prefix
	stop      context.CancelFunc
}

// NewServer builds the handler. Start it with Start, or mount Handler.
func NewServer(svc *Service, cfg ServerConfig) (*Server, error) {
	s := &Server{svc: svc, cfg: cfg, people: cfg.People,
		regLim:  newAddrLimiter(svc.st, "registrations", cfg.RegisterPerMinute, DefaultRegisterPerMinute),
		authLim: newAddrLimiter(svc.st, "authorizations", cfg.AuthorizePerMinute, DefaultAuthorizePerMinute)}
	if s.people == nil {
		s.people = NewOwnerSessions(svc)
	}
	proxies, err := parseProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	s.proxies = proxies
	if cfg.PublicURL != "" {
		u, err := url.Parse(strings.TrimRight(cfg.PublicURL, "/"))
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != "" || u.RawQuery != "" {
			return nil, fmt.Errorf("public URL %q must be an origin like https://osfoundry.example.com (no path)", cfg.PublicURL)
		}
		if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("public URL %q must use https unless it is a loopback address", cfg.PublicURL)
		}
		s.public = u
	}
	ms := mcp.NewServer(&mcp.Implementation{Name: "osfoundry", Version: ServerVersion},
		// Stateless with JSON answers: no stream to send list changes or log
		// messages on, so neither is advertised.
		&mcp.ServerOptions{Instructions: Instructions, Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	for _, name := range svc.cat.order {
		ms.AddTool(svc.cat.tools[name].mcpTool(), svc.mcpHandler(name))
	}
	s.mcp = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true,
			// Host is checked by guard for every route, against the public
			// URL too, which the SDK's loopback-only check cannot know.
			DisableLocalhostProtection: true})
	mux := http.NewServeMux()
	mux.HandleFunc(ResourcePath, s.serveMCP)
	mux.HandleFunc("GET "+prmPath, s.serveResourceMeta)
	mux.HandleFunc("GET "+prmPath+ResourcePath, s.serveResourceMeta)
	mux.HandleFunc("GET "+asmPath, s.serveAuthServerMeta)
	mux.HandleFunc(registerPath, s.serveRegister)
	mux.HandleFunc(tokenPath, s.serveToken)
	mux.HandleFunc("GET "+authorizePath, s.serveAuthorize)
	mux.HandleFunc("POST "+authorizePath, s.serveConsent)
	mux.HandleFunc("GET "+signInPath, s.serveSignIn)
	s.mux = mux
	return s, nil
}

// Handler is the whole server with the Host check in front.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.guard) }

// Start listens on addr (host:port; loopback unless a PublicURL is set)
// and serves until Close.
func (s *Server) Start(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q must be host:port, e.g. 127.0.0.1:8765: %w", addr, err)
	}
	if s.public == nil && !isLoopbackHost(host) {
		return fmt.Errorf("listen address %q is not loopback; serving other machines needs --public-url https://… behind TLS", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	s.mu.Lock()
	ln = newCapListener(ln, s.cfg.MaxConnsPerAddr)
	s.ln = ln
	s.http = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:  orDefault(s.cfg.ReadTimeout, DefaultReadTimeout),
		WriteTimeout: orDefault(s.cfg.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:  orDefault(s.cfg.IdleTimeout, DefaultIdleTimeout)}
	ctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.mu.Unlock()
	go s.http.Serve(ln)
	go s.Janitor(ctx)
	return nil
}

// Janitor drops expired requests, codes, sessions, tokens, unused
// registrations and idle rate-limit buckets every PurgeEvery until ctx
// ends, so what unauthenticated callers leave behind goes away even when
// nobody ever consents. Start runs it; a team server that mounts Handler
// runs it on each replica (the deletes are idempotent).
func (s *Server) Janitor(ctx context.Context) {
	every := s.cfg.PurgeEvery
	if every <= 0 {
		every = PurgeInterval
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.svc.purge(ctx)
			_ = s.svc.st.ForgetBuckets(ctx, time.Now().Add(-bucketIdle)) // best effort, like purge
		}
	}
}

// Addr is the listening address after Start.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return ""
	}
	return s.ln.Addr().String()
}

// BaseURL is the issuer: the public URL, or http://<listen address>.
func (s *Server) BaseURL() string {
	if s.public != nil {
		return s.public.String()
	}
	return "http://" + s.Addr()
}

// ResourceURL is the server address users paste into their assistant.
func (s *Server) ResourceURL() string { return s.BaseURL() + ResourcePath }

// SignInURL mints a one-time owner sign-in link for user (OwnerID for the
// person at this machine). Opening it in the browser signs them in for the
// consent page and continues to a pending consent, if any.
func (s *Server) SignInURL(ctx context.Context, user string, ttl time.Duration) (string, error) {
	tok, err := s.svc.SignInToken(ctx, user, ttl)
	if err != nil {
		return "", err
	}
	return s.BaseURL() + signInPath + "?token=" + url.QueryEscape(tok), nil
}

// Close stops the server.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	h := s.http
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
	s.mu.Unlock()
	if h == nil {
		return nil
	}
	if err := h.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("stopping connect server: %w", err)
	}
	return nil
}

// base returns the origin for this request: the public URL, else the
// Host the client used (already checked by guard).
func (s *Server) base(r *http.Request) string {
	if s.public != nil {
		return s.public.String()
	}
	return "http://" + r.Host
}

// guard rejects a Host that is not ours (DNS rebinding) before any route.
func (s *Server) guard(w http.ResponseWriter, r *http.Request) {
	if !s.hostOK(r.Host) {
		http.Error(w, fmt.Sprintf("Forbidden: Host %q is not this server", r.Host), http.StatusForbidden)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

func (s *Server) hostOK(host string) bool {
	if s.public != nil && strings.EqualFold(host, s.public.Host) {
		return true
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		return false
	}
	if !isLoopbackHost(h) {
		return false
	}
	// Any loopback name, but only on the port we listen on (when known).
	if a := s.Addr(); a != "" {
		_, lport, _ := net.SplitHostPort(a)
		return port == lport
	}
	return true
}

// originOK allows our own origin and the configured browser origins.
func (s *Server) originOK(r *http.Request, origin string) bool {
	return strings.EqualFold(origin, s.base(r)) || slices.Contains(s.cfg.AllowedOrigins, origin)
}

// scopesSupported lists the scopes some offered tool needs: run only with a
// runner configured, models never while no tool uses it.
func (s *Server) scopesSupported() []string {
	var sc []string
	for _, want := range []string{tools.ScopeRead, tools.ScopeWrite, tools.ScopeRun, tools.ScopeModels} {
		for _, name := range s.svc.cat.order {
			if s.svc.cat.tools[name].Scope == want {
				sc = append(sc, want)
				break
			}
		}
	}
	return sc
}

func (s *Server) resourceMeta(r *http.Request) *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{
		Resource:               s.base(r) + ResourcePath,
		AuthorizationServers:   []string{s.base(r)},
		ScopesSupported:        s.scopesSupported(),
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "osFoundry",
	}
}

func (s *Server) serveResourceMeta(w http.ResponseWriter, r *http.Request) {
	publicJSON(w, http.StatusOK, s.resourceMeta(r))
}

// authServerMeta is RFC 8414 metadata. The SDK's AuthServerMeta always
// writes jwks_uri (empty here), which the TypeScript client's URL check
// rejects, so the document has its own type.
type authServerMeta struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	ResponseModesSupported            []string `json:"response_modes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	AuthorizationResponseIssSupported bool     `json:"authorization_response_iss_parameter_supported"`
}

func (s *Server) serveAuthServerMeta(w http.ResponseWriter, r *http.Request) {
	b := s.base(r)
	publicJSON(w, http.StatusOK, authServerMeta{
		Issuer:                            b,
		AuthorizationEndpoint:             b + authorizePath,
		TokenEndpoint:                     b + tokenPath,
		RegistrationEndpoint:              b + registerPath,
		ScopesSupported:                   s.scopesSupported(),
		ResponseTypesSupported:            []string{"code"},
		ResponseModesSupported:            []string{"query"},
		GrantTypesSupported:               []string{"authorization_code", "refresh_token"},
		TokenEndpointAuthMethodsSupported: []string{"none"},
		CodeChallengeMethodsSupported:     []string{"S256"},
		AuthorizationResponseIssSupported: true,
	})
}
