package connect

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// publicJSON writes a JSON document any origin may read: metadata,
// registration and token responses carry no cookie-based authority.
func publicJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func preflight(w http.ResponseWriter, r *http.Request, methods string) bool {
	if r.Method != http.MethodOptions {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", methods+", OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Authorization, MCP-Protocol-Version")
	w.WriteHeader(http.StatusNoContent)
	return true
}

func oauthFail(w http.ResponseWriter, err error) {
	var oe *oauthError
	if errors.As(err, &oe) {
		status := http.StatusBadRequest
		if oe.Code == "invalid_client" {
			status = http.StatusUnauthorized
		}
		publicJSON(w, status, oe)
		return
	}
	// Not an answer about the request: the store failed (PostgreSQL
	// restarting, a file locked too long). The client may retry as is.
	w.Header().Set("Retry-After", "5")
	publicJSON(w, http.StatusServiceUnavailable, &oauthError{"server_error", "the server cannot reach its records right now; try again in a few seconds"})
}

// serveRegister is RFC 7591 dynamic client registration for public
// clients: hosts register themselves and nobody pastes a client id.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if preflight(w, r, "POST") {
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "use POST to register a client", http.StatusMethodNotAllowed)
		return
	}
	ok, wait, err := s.regLim.allow(r.Context(), s.clientAddr(r))
	if err != nil {
		w.Header().Set("Retry-After", "5")
		publicJSON(w, http.StatusServiceUnavailable, &oauthError{"temporarily_unavailable", "the server cannot count registrations right now; try again in a few seconds"})
		return
	}
	if !ok {
		tooMany(w, wait, "registrations")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRegisterBody))
	if err != nil {
		oauthFail(w, &oauthError{"invalid_client_metadata", "registration body too large (at most 16 KB) or unreadable"})
		return
	}
	var m oauthex.ClientRegistrationMetadata
	if err := json.Unmarshal(body, &m); err != nil {
		// Not err itself: it names Go types.
		oauthFail(w, &oauthError{"invalid_client_metadata", "registration body must be a JSON object of client metadata (RFC 7591): " +
			"redirect_uris a list of strings, client_name a string"})
		return
	}
	resp, err := s.svc.registerClient(r.Context(), m, clientCap{s.cfg.MaxClients, s.cfg.MaxClientBytes})
	if errors.Is(err, errRegistrationsFull) {
		w.Header().Set("Retry-After", "3600")
		publicJSON(w, http.StatusServiceUnavailable, err)
		return
	}
	if err != nil {
		oauthFail(w, err)
		return
	}
	publicJSON(w, http.StatusCreated, resp)
}

// serveToken is the token endpoint: authorization_code with PKCE S256, and
// refresh_token with rotation. Clients are public (auth method none).
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if preflight(w, r, "POST") {
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "use POST", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			publicJSON(w, http.StatusRequestEntityTooLarge, &oauthError{"invalid_request", "token request too large (at most 64 KB)"})
			return
		}
		oauthFail(w, &oauthError{"invalid_request", "body must be application/x-www-form-urlencoded"})
		return
	}
	f := r.PostForm
	clientID := f.Get("client_id")
	if clientID == "" {
		// A confidential-style Basic header still names the client.
		if u, _, ok := r.BasicAuth(); ok {
			clientID = u
		}
	}
	if _, err := s.svc.client(r.Context(), clientID); errors.Is(err, ErrNotFound) {
		oauthFail(w, &oauthError{"invalid_client", "unknown client_id; register again"})
		return
	} else if err != nil {
		oauthFail(w, err) // the store failed: 503, retry as is
		return
	}
	var resp *TokenResponse
	var err error
	switch f.Get("grant_type") {
	case "authorization_code":
		if f.Get("code") == "" || f.Get("code_verifier") == "" {
			oauthFail(w, &oauthError{"invalid_request", "code and code_verifier are required (PKCE S256)"})
			return
		}
		resp, err = s.svc.exchangeCode(r.Context(), f.Get("code"), clientID, f.Get("redirect_uri"), f.Get("code_verifier"), f.Get("resource"))
	case "refresh_token":
		resp, err = s.svc.refresh(r.Context(), f.Get("refresh_token"), clientID, f.Get("resource"), f.Get("scope"))
	default:
		err = &oauthError{"unsupported_grant_type", "grant_type must be authorization_code or refresh_token"}
	}
	if err != nil {
		oauthFail(w, err)
		return
	}
	w.Header().Set("Pragma", "no-cache")
	publicJSON(w, http.StatusOK, resp)
}
