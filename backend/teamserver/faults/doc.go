// Package faults holds the team server's fault tests: the real
// `osfoundry team-server` binary, two replicas behind haproxy with TLS and
// a throw-away PostgreSQL, broken on purpose. A replica is SIGKILLed in the
// middle of guarded note writes while the client retries on the other one;
// PostgreSQL is stopped under load and started again; a replica meets a
// schema a newer release migrated. Each test says what must hold after
// the fault: no write lost or applied twice, 503 while the database is
// away and success again without restarting a replica, a refusal to start
// that says what to do.
//
// It has no code outside its tests and nothing imports it.
package faults
