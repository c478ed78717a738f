package code

import (
	"strings"
	"testing"
)

func TestSplitDiff(t *testing.T) {
	diff := "diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n" +
		"diff --git a/new.md b/new.md\nnew file mode 100644\n--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,2 @@\n+one\n+two\n" +
		"diff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" +
		"diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n"
	got := SplitDiff(diff)
	want := []ChangedFile{
		{Path: "a.txt", Status: "modified", Added: 1, Removed: 1},
		{Path: "new.md", Status: "added", Added: 2},
		{Path: "gone", Status: "deleted", Removed: 1},
		{Path: "img.png", Status: "modified", Binary: true},
	}
	if len(got) != len(want) {
		t.Fatalf("files = %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.Path != w.Path || g.Status != w.Status || g.Added != w.Added || g.Removed != w.Removed || g.Binary != w.Binary || !strings.HasPrefix(g.Patch, "diff --git a/"+w.Path) {
			t.Errorf("file %d = %+v, want %+v", i, g, w)
		}
	}
	if len(SplitDiff("")) != 0 {
		t.Error("an empty diff has files")
	}
}
