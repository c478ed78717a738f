package notes

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// EventRecordsChanged is emitted after every committed change to a Record
// item — an agent's edit_record_item from any process, an owner command,
// the person's own save — so an open board follows without polling.
const EventRecordsChanged = "records:changed"

// RecordsChangedEvent is EventRecordsChanged's payload.
type RecordsChangedEvent struct {
	Channel string `json:"record_channel_id"`
	Item    string `json:"item_id"`
	// Version is the item's new version; 0 when it was deleted.
	Version int64 `json:"version"`
}

// RecordsBinding is the Records screen's bound service over the Places and
// Records services. Start begins announcing changes; Stop ends it.
type RecordsBinding struct {
	db      *sql.DB // polled for other processes' commits (SQLite's data_version)
	places  *Places
	records *Records
	emit    Emitter
	timeout time.Duration
	every   time.Duration

	mu   sync.Mutex
	seen map[string]seenItem // item id → its channel and last version announced
	stop context.CancelFunc
	done chan struct{}
}

// NewRecordsBinding returns the Records screen's service; emit nil drops
// events.
func NewRecordsBinding(s *Store, emit Emitter) *RecordsBinding {
	if emit == nil {
		emit = noEmitter{}
	}
	return &RecordsBinding{db: s.db, places: s.Places, records: s.Records, emit: emit, timeout: 30 * time.Second, every: watchEvery, seen: map[string]seenItem{}}
}

func (b *RecordsBinding) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), b.timeout)
}

// Start watches for Record changes made by any connection (the agent tools
// run in this process and in `osfoundry bridge` / `osfoundry notes tool`).
// What is stored when Start returns is the baseline: only later changes
// are announced.
func (b *RecordsBinding) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := b.db.Conn(ctx)
	if err != nil {
		cancel()
		return fmt.Errorf("starting records watcher: %w", lockErr(err))
	}
	var dv int64
	since := ""
	if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err == nil {
		since, err = b.scan(ctx, conn, "", true)
		if err != nil {
			dv = -1
		}
	} else {
		dv = -1
	}
	b.mu.Lock()
	b.stop, b.done = cancel, make(chan struct{})
	done := b.done
	b.mu.Unlock()
	go b.watch(ctx, conn, dv, since, done)
	return nil
}

// Stop ends Start's watcher.
func (b *RecordsBinding) Stop() {
	b.mu.Lock()
	stop, done := b.stop, b.done
	b.stop = nil
	b.mu.Unlock()
	if stop == nil {
		return
	}
	stop()
	<-done
}

// seenItem is what the watcher knows of an item: enough to announce its
// next version once, or its delete.
type seenItem struct {
	channel string
	version int64
}

func (b *RecordsBinding) announce(channel, item string, version int64) {
	b.mu.Lock()
	if b.seen[item].version >= version {
		b.mu.Unlock()
		return
	}
	b.seen[item] = seenItem{channel, version}
	b.mu.Unlock()
	b.emit.Emit(EventRecordsChanged, RecordsChangedEvent{Channel: channel, Item: item, Version: version})
}

// announceDeletes announces, with version 0, the items seen before that
// are gone (deleted here, by an agent, or by a teammate's synced delete),
// so an open board drops them. A count of the rows finds that something
// went without listing every id on each commit.
func (b *RecordsBinding) announceDeletes(ctx context.Context, q querier) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM record_items`).Scan(&n); err != nil {
		return err
	}
	b.mu.Lock()
	known := len(b.seen)
	b.mu.Unlock()
	if n >= known {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT id FROM record_items`)
	if err != nil {
		return err
	}
	defer rows.Close()
	here := make(map[string]bool, n)
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		here[id] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var gone []RecordsChangedEvent
	b.mu.Lock()
	for id, it := range b.seen {
		if !here[id] {
			delete(b.seen, id)
			gone = append(gone, RecordsChangedEvent{Channel: it.channel, Item: id})
		}
	}
	b.mu.Unlock()
	for _, ev := range gone {
		b.emit.Emit(EventRecordsChanged, ev)
	}
	return nil
}

// watch polls PRAGMA data_version on one held connection (it moves only
// when another connection commits) and then reads the items touched since
// the last look, as the Notes watcher does.
func (b *RecordsBinding) watch(ctx context.Context, conn *sql.Conn, last int64, since string, done chan struct{}) {
	defer close(done)
	defer conn.Close()
	t := time.NewTicker(b.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var dv int64
		if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err == nil && dv != last {
			if since, err = b.scan(ctx, conn, since, last == -1); err == nil {
				err = b.announceDeletes(ctx, conn)
			}
			if err == nil {
				last = dv
			}
		}
	}
}

func (b *RecordsBinding) scan(ctx context.Context, q querier, since string, first bool) (string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, channel_id, version, updated_at FROM record_items WHERE updated_at >= ?`, rescanFrom(since))
	if err != nil {
		return since, err
	}
	defer rows.Close()
	type change struct {
		id, channel string
		v           int64
	}
	var changed []change
	newest := since
	for rows.Next() {
		var c change
		var upd string
		if err := rows.Scan(&c.id, &c.channel, &c.v, &upd); err != nil {
			return since, err
		}
		newest = max(newest, upd)
		changed = append(changed, c)
	}
	if err := rows.Err(); err != nil {
		return since, err
	}
	for _, c := range changed {
		if first {
			b.mu.Lock()
			b.seen[c.id] = seenItem{c.channel, max(b.seen[c.id].version, c.v)}
			b.mu.Unlock()
			continue
		}
		b.announce(c.channel, c.id, c.v)
	}
	return newest, nil
}

// RecordsOverview is everything the Records list shows.
type RecordsOverview struct {
	Workspaces []Workspace   `json:"workspaces"`
	Projects   []Project     `json:"projects"`
	Channels   []RecordBoard `json:"channels"`
}

// Overview lists every workspace with its projects and Record channels.
func (b *RecordsBinding) Overview() (RecordsOverview, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	ws, err := b.places.ListWorkspaces(ctx)
	if err != nil {
		return RecordsOverview{}, err
	}
	o := RecordsOverview{Workspaces: ws, Projects: []Project{}, Channels: []RecordBoard{}}
	for _, w := range ws {
		ps, err := b.places.ListProjects(ctx, w.ID)
		if err != nil {
			return RecordsOverview{}, err
		}
		cs, err := b.records.RecordBoards(ctx, w.ID)
		if err != nil {
			return RecordsOverview{}, err
		}
		o.Projects = append(o.Projects, ps...)
		o.Channels = append(o.Channels, cs...)
	}
	return o, nil
}

// CreateChannel creates a Record channel with its statuses, e.g.
// ["Draft", "Review", "Ready"]; project "" leaves it outside every project.
func (b *RecordsBinding) CreateChannel(workspace, project, name string, statuses []string) (RecordBoard, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.records.CreateRecordBoard(ctx, workspace, project, name, statuses)
}

// Channel returns one channel with its statuses.
func (b *RecordsBinding) Channel(channelID string) (RecordBoard, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.records.RecordBoardByID(ctx, channelID)
}

// Items lists a channel's items, oldest first.
func (b *RecordsBinding) Items(channelID string) ([]RecordItem, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.records.ListRecords(ctx, channelID)
}

// Item returns one item.
func (b *RecordsBinding) Item(channelID, itemID string) (RecordItem, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.records.GetRecord(ctx, channelID, itemID)
}

// AddItem adds an item; status "" takes the channel's first status.
func (b *RecordsBinding) AddItem(channelID, title, status, body string) (RecordItem, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	it, err := b.records.AddRecord(ctx, channelID, title, status, body)
	if err != nil {
		return RecordItem{}, err
	}
	b.announce(it.Channel, it.ID, it.Version)
	return it, nil
}

// DeleteItem removes an item (of a synced project: on the team server
// too, unless a teammate edited it meanwhile — then it comes back with
// their edit).
func (b *RecordsBinding) DeleteItem(channelID, itemID string) error {
	ctx, cancel := b.ctx()
	defer cancel()
	if err := b.records.DeleteRecordItem(ctx, channelID, itemID); err != nil {
		return fmt.Errorf("deleting record: %w", err)
	}
	return nil
}

// SaveItem saves the person's edit if the item is still at
// expectedVersion; on a conflict nothing is written and the result carries
// the item as it is now.
func (b *RecordsBinding) SaveItem(channelID, itemID string, expectedVersion int64, edit RecordEdit) (RecordSaveResult, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	r, err := b.records.SaveRecordAsPerson(ctx, channelID, itemID, expectedVersion, edit)
	if err != nil {
		return RecordSaveResult{}, fmt.Errorf("saving record: %w", err)
	}
	if r.Saved {
		b.announce(channelID, itemID, r.Version)
	}
	return r, nil
}
