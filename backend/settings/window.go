package settings

// OpenForWindow opens dir's preferences for the window and binds the
// Settings screen over them: follow gets the preferences now and after
// every saved change, so what a setting controls (desktop notifications)
// is right from the start. dialogs and home are NewBinding's. A settings
// file that cannot be read leaves the defaults in use: the store and the
// binding work, and the error is returned for the log.
func OpenForWindow(dir string, dialogs Dialogs, home string, follow func(Prefs)) (*Store, *Binding, error) {
	s, err := Open(dir)
	s.Follow(follow)
	return s, NewBinding(s, dialogs, home), err
}
