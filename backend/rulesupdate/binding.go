package rulesupdate

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Status is what Settings shows about the detection rules in use.
type Status struct {
	// Installed: a bundle was installed; the fields below describe it.
	Installed bool   `json:"installed"`
	Version   string `json:"version"`
	Source    string `json:"source"`
	// InstalledAt is epoch milliseconds, as every time the window gets
	// (0 when the installed record's RFC 3339 time does not parse).
	InstalledAt int64    `json:"installedAt"`
	Files       []string `json:"files"`
	Folder      string   `json:"folder"`     // the override folder
	DefaultURL  string   `json:"defaultUrl"` // where updates come from by default
	// Previous is where the folder as it was before an update is kept
	// (set right after an update that replaced one).
	Previous string `json:"previous"`
	// Problems are override files the app could not use after the update
	// (the person's own files; a bundle's files never get here broken).
	Problems []string `json:"problems"`
}

// Binding is the Settings screen's "Agent detection rules" API.
type Binding struct {
	home   string
	key    string
	client *http.Client
	// reload applies the override folder to the running app's panes.
	reload func() ([]error, error)
}

// NewBinding installs into home's override folder, trusting key (base64;
// "" = ProductionPublicKey), and calls reload after an install; reload may
// be nil (no panes to update).
func NewBinding(home, key string, reload func() ([]error, error)) *Binding {
	if key == "" {
		key = ProductionPublicKey
	}
	return &Binding{home: home, key: key, reload: reload}
}

// Status says which rules are installed.
func (b *Binding) Status() (Status, error) {
	in, ok, err := ReadInstalled(b.home)
	if err != nil {
		return Status{}, err
	}
	return statusOf(in, ok), nil
}

func statusOf(in Installed, ok bool) Status {
	files := in.Files
	if files == nil {
		files = []string{}
	}
	var at int64
	if t, err := time.Parse(time.RFC3339, in.InstalledAt); err == nil {
		at = t.UnixMilli()
	}
	return Status{Installed: ok, Version: in.Version, Source: in.Source, InstalledAt: at, Files: files,
		Folder: in.Folder, DefaultURL: DefaultURL, Previous: in.Previous, Problems: []string{}}
}

// Update fetches the bundle at url ("" = DefaultURL), installs it if it
// passes every check and applies it to the open panes at once. A refused
// bundle's error says why and that nothing was changed.
func (b *Binding) Update(url string) (Status, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in, err := Update(ctx, Options{URL: url, Home: b.home, Key: b.key, Client: b.client})
	if err != nil {
		return Status{}, err
	}
	st := statusOf(in, true)
	if b.reload != nil {
		problems, err := b.reload()
		if err != nil {
			return Status{}, fmt.Errorf("the rules were installed but could not be applied to open panes (they apply at the next start): %w", err)
		}
		for _, p := range problems {
			st.Problems = append(st.Problems, p.Error())
		}
	}
	return st, nil
}
