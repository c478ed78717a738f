// Package notes is the person's written material and the rules every
// writer follows: Notes (with tabs and drafts), knowledge bases and their
// articles, Record channels with their own statuses and items, and the
// workspaces and projects they belong to. The person's editor, the
// Connected endpoint's assistants and workers' bridges all write through
// the same rules: every agent write is conditional (expected_version) and
// idempotent (idempotency_key), so an agent never silently overwrites a
// person; a write that lost the race comes back as a conflict the editor
// shows as compare / re-apply. The editor's unsaved drafts live in the
// database too, so a crash loses nothing.
//
// The rules live in one service per resource — Places (workspaces,
// projects), Notes, Records, Knowledge, Drafts — over the Backend
// interface (rows.go): small rows interfaces in plain Go types and a write
// transaction (Backend.Write) inside which the idempotency lookup, the
// version compare and the write run together. The desktop's Backend is its
// SQLite file (sqlite_*.go), the team server's is PostgreSQL (pgnotes);
// notestest.RunStoreSuite is the suite both pass. Store is only the
// composition: Open builds the services on the SQLite backend, OpenBackend
// on another engine's; its fields (s.Notes, s.Records, s.Knowledge …) hand
// one resource to a caller, and the screens' bindings hold the services
// they use. Full-text search is one rule (searcher.go) over a Searcher per
// engine (FTS5 in search.go); the screens' change watchers (PRAGMA
// data_version) are the desktop's only.
//
// It never decides who may call a tool: access (connections, projects,
// channels) is checked by its callers (backend/connect, backend/tools)
// before a service method runs.
package notes
