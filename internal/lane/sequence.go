package lane

// Newer reports whether sequence number a is newer than b on a wrapping
// 32-bit counter: a is ahead of b by less than half the range.
func Newer(a, b uint32) bool { return a != b && a-b < 1<<31 }

// Sequence is the receiver of an unreliable sequenced lane (PlayerSync and
// other snapshots): it accepts a packet only when its sequence number is
// newer than the newest accepted. The zero value accepts anything first.
type Sequence struct {
	newest uint32
	seen   bool
	stale  int
}

// Accept reports whether seq is newer than everything accepted so far and,
// if it is, makes it the newest. A stale or repeated seq is counted.
func (s *Sequence) Accept(seq uint32) bool {
	if s.seen && !Newer(seq, s.newest) {
		s.stale++
		return false
	}
	s.newest, s.seen = seq, true
	return true
}

// Newest returns the newest accepted sequence number and whether there is
// one.
func (s *Sequence) Newest() (uint32, bool) { return s.newest, s.seen }

// Stale returns how many packets were dropped as not newer.
func (s *Sequence) Stale() int { return s.stale }
