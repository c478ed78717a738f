package notes

import (
	"context"
	"testing"
)

func TestListRecordChannels(t *testing.T) {
	f := newFixture(t, Options{})
	ctx := context.Background()
	if _, err := f.s.CreateWorkspace(ctx, "ws-2", "Other"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ ws, project, id, name string }{
		{"ws-1", "proj-a", "rc-bugs", "Bugs"},
		{"ws-1", "", "rc-all", "All hands"},
		{"ws-2", "", "rc-other", "Elsewhere"},
	} {
		if _, err := f.s.CreateRecordChannel(ctx, c.ws, c.project, c.id, c.name); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		ws   string
		want []RecordChannel
	}{
		{"ws-1", []RecordChannel{{ID: "rc-all", Workspace: "ws-1", Name: "All hands"}, {ID: "rc-bugs", Workspace: "ws-1", Project: "proj-a", Name: "Bugs"}}},
		{"ws-2", []RecordChannel{{ID: "rc-other", Workspace: "ws-2", Name: "Elsewhere"}}},
		{"ws-none", []RecordChannel{}},
	}
	for _, tt := range tests {
		got, err := f.s.ListRecordChannels(ctx, tt.ws)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: got %+v, want %+v", tt.ws, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s[%d]: got %+v, want %+v", tt.ws, i, got[i], tt.want[i])
			}
		}
	}
}
