package pgmessages_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/osfoundry/desktop/backend/messages"
	"github.com/osfoundry/desktop/backend/messages/pgmessages"
	"github.com/osfoundry/desktop/backend/pgdb"
	"github.com/osfoundry/desktop/backend/testkit/pgtest"
)

// Replicas that start together migrate once and attach one trigger; from
// then on a project has its discussion channel as soon as it exists, and
// a Store on any replica finds it. A project made while no trigger was
// attached gets its channel when a replica opens the store.
func TestReplicasStartTogetherAndProjectsGetTheirDiscussion(t *testing.T) {
	url := pgtest.Database(t)
	nb := withNotes(t, url)
	setup, err := pgdb.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(setup.Close)
	const replicas = 4
	backends := make([]*pgmessages.Backend, replicas)
	errs := make([]error, replicas)
	var wg sync.WaitGroup
	for i := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pool, err := pgdb.Open(bg, url)
			if err != nil {
				errs[i] = err
				return
			}
			t.Cleanup(pool.Close)
			backends[i], errs[i] = pgmessages.Open(bg, pool)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var triggers int
	if err := setup.QueryRow(bg, `SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = 'projects'::regclass AND NOT tgisinternal`).Scan(&triggers); err != nil {
		t.Fatal(err)
	}
	if triggers != 1 {
		t.Errorf("%d triggers on projects, want 1", triggers)
	}
	// A project made before the message store was opened gets its
	// discussion channel when a replica opens the store.
	pool, err := pgdb.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(bg, `DROP TRIGGER projects_discussion_channel ON projects`); err != nil {
		t.Fatal(err)
	}
	addProject(t, nb, "ws-1", "p0", "Older")
	if _, err := backends[0].Pool().Channels().Discussion(bg, "p0"); !errors.Is(err, messages.ErrNotFound) {
		t.Fatalf("p0 has a discussion channel without the trigger: %v", err)
	}
	if _, _, err := pgmessages.OpenStore(bg, pool, messages.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := backends[1].Pool().Channels().Discussion(bg, "p0"); err != nil {
		t.Errorf("OpenStore left p0 without its discussion channel: %v", err)
	}
	addProject(t, nb, "ws-1", "p1", "Apollo") // the trigger is back
	c, err := backends[3].Pool().Channels().Discussion(bg, "p1")
	if err != nil || c.Workspace != "ws-1" || !c.Discussion || c.Name != "discussion" || len(c.ID) != len("ch_")+16 {
		t.Fatalf("the new project's discussion channel = %+v, %v", c, err)
	}
	s := messages.New(backends[0], messages.Options{})
	got, err := s.ProjectDiscussion(bg, "p1")
	if err != nil || got.ID != c.ID {
		t.Errorf("ProjectDiscussion on another replica = %+v, %v; want %s", got, err, c.ID)
	}
}
