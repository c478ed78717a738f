package store

import "sync"

// Subscribers is a list of functions to call after a commit (a Note
// changed, a message was posted). The zero value is ready to use.
type Subscribers[T any] struct {
	mu   sync.Mutex
	fs   map[int]func(T)
	next int
}

// Add registers f and returns the function that removes it.
func (s *Subscribers[T]) Add(f func(T)) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fs == nil {
		s.fs = map[int]func(T){}
	}
	id := s.next
	s.next++
	s.fs[id] = f
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.fs, id)
	}
}

// Notify calls every registered function with v, on the caller's
// goroutine and outside the lock, so one may add or remove another.
func (s *Subscribers[T]) Notify(v T) {
	s.mu.Lock()
	fs := make([]func(T), 0, len(s.fs))
	for _, f := range s.fs {
		fs = append(fs, f)
	}
	s.mu.Unlock()
	for _, f := range fs {
		f(v)
	}
}
