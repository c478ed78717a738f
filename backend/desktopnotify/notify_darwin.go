package desktopnotify

import (
	"fmt"
	"os/exec"
	"strconv"
)

// osascript notifications report no clicks back; the rail and Mod+. still
// lead to the pane.
type macNotifier struct{}

func newPlatform(*Notifier) platform { return macNotifier{} }

func (macNotifier) show(m Message) error {
	script := "display notification " + strconv.Quote(m.Body) + " with title " + strconv.Quote(m.Title)
	if out, err := exec.Command("osascript", "-e", script).CombinedOutput(); err != nil {
		return fmt.Errorf("showing a notification with osascript: %w (%s)", err, out)
	}
	return nil
}

func (macNotifier) close() {}
