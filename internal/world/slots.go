package world

// slots gives the entries of a grid dense keys: the grid's key is an index
// into v, which holds what a query reads of each entry (its id and rev),
// and an index freed by a remove is reused. A query then reads a compact
// array instead of a map lookup and a struct per hit
// (docs/decisions/0198-dense-grid-keys.md).
type slots[T any] struct {
	v    []T
	free []uint32
}

// add stores x and returns its key.
func (s *slots[T]) add(x T) uint32 {
	if n := len(s.free); n > 0 {
		k := s.free[n-1]
		s.free = s.free[:n-1]
		s.v[k] = x
		return k
	}
	s.v = append(s.v, x)
	return uint32(len(s.v) - 1)
}

// remove frees key k.
func (s *slots[T]) remove(k uint32) {
	var zero T
	s.v[k] = zero
	s.free = append(s.free, k)
}
