//go:build !windows && !darwin

package msgbox

import (
	"errors"
	"os"
	"os/exec"
	"strings"

	"github.com/osfoundry/desktop/backend/desktopnotify"
)

// show tries the dialog programs desktops ship (GNOME's zenity, KDE's
// kdialog, X's xmessage), each given the text as one argument, never
// through a shell. Without any of them the text goes out as a desktop
// notification over D-Bus, which every desktop session shows.
func show(title, text string) error {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errors.New("no display to show a message on")
	}
	tries := [][]string{
		{"zenity", "--error", "--no-markup", "--width=480", "--title", title, "--text", text},
		{"kdialog", "--title", title, "--error", text},
		{"xmessage", "-center", "-title", title, "--", text},
	}
	var errs []string
	for _, argv := range tries {
		p, err := exec.LookPath(argv[0])
		if err != nil {
			continue
		}
		if err := exec.Command(p, argv[1:]...).Run(); err != nil {
			errs = append(errs, argv[0]+": "+err.Error())
			continue
		}
		return nil
	}
	n := desktopnotify.New(title, nil)
	defer n.Close()
	if err := n.Show(desktopnotify.Message{Title: title, Body: text}); err != nil {
		errs = append(errs, err.Error())
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}
