//go:build osftestroutes

package teamserver

import (
	"context"
	"net/http"
	"net/http/pprof"
)

// A binary built with -tags osftestroutes serves Go's profiler at
// /debug/pprof/ on each replica's own address, so `osfoundry-bench server`
// can say where a replica's time goes under load. The shipped server
// has no such route.
func init() {
	builtin = append(builtin, Component{Name: "pprof", Start: func(_ context.Context, s *Server) error {
		s.Mount("GET /debug/pprof/", http.HandlerFunc(pprof.Index))
		s.Mount("GET /debug/pprof/profile", http.HandlerFunc(pprof.Profile))
		return nil
	}})
}
