// Package e2e proves the team server whole, the way a team runs it: two
// `osfoundry team-server` processes on one throw-away PostgreSQL, Debian's
// haproxy in front with TLS from a throw-away CA, people signing in at a
// real OpenID Connect provider (zitadel/oidc's example OP, in the test
// process), and assistants connecting with the Go and TypeScript MCP SDK
// clients through the balancer. It holds only tests; nothing ships from it.
//
// One cluster serves every check (TestTeamServer's subtests), so the
// package costs one build, one database and two server starts.
package e2e_test
