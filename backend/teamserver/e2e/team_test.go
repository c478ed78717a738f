package e2e_test

import (
	"testing"

	"github.com/osfoundry/desktop/backend/teamauth"
)

// TestTeamServer runs every check against one cluster: two replicas,
// haproxy with TLS, PostgreSQL and the provider, started once.
func TestTeamServer(t *testing.T) {
	c := newCluster(t)
	// The TypeScript client trusts the balancer's throw-away CA.
	t.Setenv("NODE_EXTRA_CA_CERTS", c.lb.CAFile)
	c.bob, c.bobMember = c.member("bob", teamauth.Editor)
	t.Run("the 9-step scenario with the Go SDK", func(t *testing.T) { scenarioGoSDK(t, c) })
	t.Run("the 9-step scenario with the TypeScript SDK", func(t *testing.T) { scenarioTypeScript(t, c) })
	t.Run("OAuth across replicas, refresh and wrong tokens", func(t *testing.T) { oauthAcrossReplicas(t, c) })
	t.Run("members removed or demoted lose access on the next call", func(t *testing.T) { membership(t, c) })
	t.Run("hostile input is refused through the balancer", func(t *testing.T) { hostile(t, c) })
	t.Run("the notes race across replicas", func(t *testing.T) { notesRace(t, c) })
	t.Run("message channels across replicas", func(t *testing.T) { messageChannels(t, c) })
	t.Run("a project shared with a teammate, on their page", func(t *testing.T) { sharing(t, c) })
}
