//go:build osftestroutes

package teamserver

import (
	"context"
	"errors"
	"net/http"
	"os"
	"time"
)

// A binary built with -tags osftestroutes (only the tests build one)
// answers GET /test/slow?until=FILE: it sends its headers at once and
// finishes when FILE exists, so a test holds a request in flight across
// a SIGTERM without guessing at durations. Its readiness follows the file
// OSF_TEST_UNREADY names.
func init() {
	builtin = append(builtin, Component{Name: "testroutes", Ready: func(context.Context) error {
		// OSF_TEST_UNREADY names a file whose presence makes this component unready.
		if f := os.Getenv("OSF_TEST_UNREADY"); f != "" {
			if _, err := os.Stat(f); err == nil {
				return errors.New("the test asked for it")
			}
		}
		return nil
	}, Start: func(ctx context.Context, s *Server) error {
		s.Notice("This build has test routes: GET /test/slow?until=FILE")
		s.Mount("GET /test/slow", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			w.Write([]byte("started\n"))
			http.NewResponseController(w).Flush()
			for {
				if _, err := os.Stat(r.URL.Query().Get("until")); err == nil {
					w.Write([]byte("finished\n"))
					return
				}
				select {
				case <-r.Context().Done():
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}))
		return nil
	}})
}
