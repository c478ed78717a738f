//go:build !linux && !darwin && !windows

package desktopnotify

import "errors"

type noNotifier struct{}

func newPlatform(*Notifier) platform { return noNotifier{} }

func (noNotifier) show(Message) error {
	return errors.New("desktop notifications are not available on this system; the Terminal rail still shows who needs you")
}

func (noNotifier) close() {}
