package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/osfoundry/desktop/backend/connect"
)

// codeOnce: redemptions of one code on two replicas at once take turns in
// their transactions, so exactly one finds it unused.
func codeOnce(t *testing.T, e Env) {
	insertConnection(t, e.Store, "conn_1", connect.StatusConnected)
	for round := range 3 {
		hash := fmt.Sprint("code-", round)
		code := connect.CodeRow{Hash: hash, ClientID: "client_a", ConnectionID: "conn_1", UserID: connect.OwnerID,
			RedirectURI: "http://127.0.0.1:9/cb", Challenge: "ch", Scopes: "osfoundry:read", Resource: "http://x/mcp", ExpiresAt: t0}
		must(t, e.Store.InsertCode(bg, code))
		stores := []connect.Store{e.Store, e.Replica(t)}
		var wg sync.WaitGroup
		var mu sync.Mutex
		firsts := 0
		for i, st := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := st.Tokens(bg, func(tx connect.TokenTx) error {
					c, err := tx.Code(hash)
					if err != nil {
						return err
					}
					want := code
					want.Used = c.Used
					if c != want {
						return fmt.Errorf("code round trip:\n got %+v\nwant %+v", c, want)
					}
					if c.Used {
						return tx.RevokeFamily(hash)
					}
					if err := tx.MarkCodeUsed(hash); err != nil {
						return err
					}
					mu.Lock()
					firsts++
					mu.Unlock()
					return tx.InsertToken(connect.TokenRow{Hash: fmt.Sprint(hash, "-access-", i), Kind: "access", Family: hash, ClientID: "client_a",
						ConnectionID: "conn_1", UserID: connect.OwnerID, Scopes: "osfoundry:read", Resource: "http://x/mcp", ExpiresAt: t0})
				})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if firsts != 1 {
			t.Fatalf("round %d: %d redemptions found the code unused", round, firsts)
		}
		// The second redemption revoked what the first issued.
		for i := range 2 {
			tok, err := e.Store.Token(bg, fmt.Sprint(hash, "-access-", i))
			if errors.Is(err, connect.ErrNotFound) {
				continue
			}
			must(t, err)
			if !tok.Revoked || tok.Kind != "access" || !tok.ExpiresAt.Equal(t0) {
				t.Fatalf("round %d: the first redemption's token after the second: %+v", round, tok)
			}
		}
	}
	// A token read for rotation carries its connection's status.
	err := e.Store.Tokens(bg, func(tx connect.TokenTx) error {
		tok, err := tx.Token("code-0-access-0")
		if errors.Is(err, connect.ErrNotFound) {
			tok, err = tx.Token("code-0-access-1")
		}
		if err != nil {
			return err
		}
		if tok.ConnectionStatus != connect.StatusConnected || tok.Family != "code-0" {
			return fmt.Errorf("token read for rotation: %+v", tok)
		}
		return tx.MarkTokenUsed(tok.Hash)
	})
	must(t, err)
	// An error rolls back: nothing f did stays.
	failed := errors.New("refused")
	err = e.Store.Tokens(bg, func(tx connect.TokenTx) error {
		if err := tx.InsertToken(connect.TokenRow{Hash: "rolled-back", Kind: "refresh", Family: "f", ConnectionID: "conn_1", ExpiresAt: t0}); err != nil {
			return err
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("Tokens returned %v, want f's error", err)
	}
	if _, err := e.Store.Token(bg, "rolled-back"); !errors.Is(err, connect.ErrNotFound) {
		t.Fatalf("a rolled-back token: %v", err)
	}
}

// takeOver connects only a pending connection or one the same person
// connected to the same workspace, and revokes its tokens and burns its
// codes in the same step.
func takeOver(t *testing.T, e Env) {
	st := e.Store
	insertConnection(t, st, "conn_a", connect.StatusConnected)
	must(t, st.InsertCode(bg, connect.CodeRow{Hash: "code-a", ConnectionID: "conn_a", ExpiresAt: t0}))
	must(t, st.Tokens(bg, func(tx connect.TokenTx) error {
		return tx.InsertToken(connect.TokenRow{Hash: "tok-a", Kind: "refresh", Family: "code-x", ConnectionID: "conn_a", ExpiresAt: t0})
	}))
	at := t0.Add(time.Hour)
	if ok, err := st.TakeOver(bg, connect.ConnectionRow{ID: "conn_a", DisplayName: "Codex", Workspace: "ws-other", Approver: connect.OwnerID,
		ClientID: "client_b", Scopes: "osfoundry:read", ConnectedAt: at}); err != nil || ok {
		t.Fatalf("taking a connection into another workspace: %v %v", ok, err)
	}
	if ok, err := st.TakeOver(bg, connect.ConnectionRow{ID: "conn_a", DisplayName: "Codex", Workspace: "ws-a", Approver: "usr_other",
		ClientID: "client_b", ConnectedAt: at}); err != nil || ok {
		t.Fatalf("another person taking a connection: %v %v", ok, err)
	}
	if tok, _ := st.Token(bg, "tok-a"); tok.Revoked {
		t.Fatal("a refused take-over revoked the tokens")
	}
	ok, err := st.TakeOver(bg, connect.ConnectionRow{ID: "conn_a", DisplayName: "Codex", Workspace: "ws-a", Approver: connect.OwnerID,
		ClientID: "client_b", Scopes: "osfoundry:read osfoundry:write", ConnectedAt: at})
	if err != nil || !ok {
		t.Fatalf("the approver taking their connection again: %v %v", ok, err)
	}
	if tok, _ := st.Token(bg, "tok-a"); !tok.Revoked {
		t.Fatal("the previous assistant's token survived the take-over")
	}
	must(t, st.Tokens(bg, func(tx connect.TokenTx) error {
		c, err := tx.Code("code-a")
		if err == nil && !c.Used {
			err = errors.New("the previous assistant's code survived the take-over")
		}
		return err
	}))
	c, err := e.Replica(t).Connection(bg, "conn_a")
	must(t, err)
	if c.DisplayName != "Codex" || c.Status != connect.StatusConnected || len(c.Scopes) != 2 || !c.ConnectedAt.Equal(at) || !c.CreatedAt.Equal(t0) {
		t.Fatalf("the connection after the take-over: %+v", c)
	}
	insertConnection(t, st, "conn_p", connect.StatusPending)
	offered, err := st.Offered(bg, connect.OwnerID)
	must(t, err)
	if len(offered) != 2 || offered[0].ID != "conn_p" || offered[1].ID != "conn_a" {
		t.Fatalf("offered connections, pending first: %+v", offered)
	}
	if offered, _ := st.Offered(bg, "usr_other"); len(offered) != 1 {
		t.Fatalf("another person is offered %+v, want the pending one only", offered)
	}
	if ok, err := st.Revoke(bg, "conn_a", at); err != nil || !ok {
		t.Fatalf("revoking: %v %v", ok, err)
	}
	if ok, err := st.Revoke(bg, "conn_none", at); err != nil || ok {
		t.Fatalf("revoking nothing: %v %v", ok, err)
	}
}
