package shellenv

// Binding is what the External AI tab binds: how the app found the PATH
// it looks for CLIs in.
type Binding struct{}

// NewBinding returns the binding.
func NewBinding() *Binding { return &Binding{} }

// Status is the resolution's Result so far (Pending while the login shell
// is still being read) with the PATH in use now.
func (*Binding) Status() Result { return Status() }
