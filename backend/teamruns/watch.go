package teamruns

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// watchWorker works a run's queue entry for the run's whole life on one
// replica: it ends when the run ends, and marks a claimed run Interrupted
// when the desktop's lease lapses (the desktop was closed, killed or cut
// off). It never starts a run again.
type watchWorker struct {
	river.WorkerDefaults[watchArgs]
	s *Service
}

// watchEvery is how often a watch looks at its run.
const watchEvery = 500 * time.Millisecond

// Timeout: a run may take as long as it takes while its lease is renewed.
func (w *watchWorker) Timeout(*river.Job[watchArgs]) time.Duration { return -1 }

func (w *watchWorker) Work(ctx context.Context, job *river.Job[watchArgs]) error {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		done, err := w.check(ctx, job.Args.Run)
		if err != nil || done {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

func (w *watchWorker) check(ctx context.Context, id string) (bool, error) {
	var state string
	err := w.s.cfg.Pool.QueryRow(ctx, `UPDATE team_runs SET state = 'interrupted', updated_at = now(),
			problem = 'the desktop running it stopped answering (closed, killed or offline); it was not started again'
		WHERE id = $1 AND state = 'running' AND lease_until < now() RETURNING state`, id).Scan(&state)
	if err == nil {
		w.s.cfg.Logger.Info("a run's lease lapsed", "run", id)
		return true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return false, fmt.Errorf("watching run %s: %w", id, err)
	}
	if err := w.s.cfg.Pool.QueryRow(ctx, `SELECT state FROM team_runs WHERE id = $1`, id).Scan(&state); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return true, nil
		}
		return false, fmt.Errorf("watching run %s: %w", id, err)
	}
	return state != "queued" && state != "running", nil
}
