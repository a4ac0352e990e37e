package transport

import (
	"dlmp/internal/lane"
	"net/netip"
	"testing"
	"time"
	"unsafe"
)

// warmStep reads a word of each cache line of the session that step
// reads, from its first to held's end, as a session lies on the heap (the
// allocator puts a header before an object with pointers of more than 512
// bytes, so its lines start where a new session's address says; the
// fields it names, by their offsets: a field moved so that a line has none
// of them fails it), and its result changes with each of them and with
// its lanes'.
func TestWarmStepReadsEveryLine(t *testing.T) {
	now := time.Unix(1000, 0)
	srv := &Server{}
	sess := newSession(srv, 1, netip.MustParseAddrPort("127.0.0.1:9"), 1, now)
	var s Session
	offs := []uintptr{
		unsafe.Offsetof(s.Token), unsafe.Offsetof(s.closing), unsafe.Offsetof(s.runN), unsafe.Offsetof(s.unrelEnd), unsafe.Offsetof(s.echo),
		unsafe.Offsetof(s.held) + unsafe.Offsetof(s.held[0].seq), unsafe.Offsetof(s.held) + unsafe.Sizeof(s.held[0]) + unsafe.Offsetof(s.held[1].seq),
		unsafe.Offsetof(s.lastSent), unsafe.Offsetof(s.lastHeard), unsafe.Offsetof(s.send), unsafe.Offsetof(s.gbn),
	}
	shift := uintptr(unsafe.Pointer(sess)) % 64
	lines := map[uintptr]bool{}
	for _, o := range offs {
		lines[(o+shift)/64] = true
	}
	end := unsafe.Offsetof(s.held) + unsafe.Sizeof(s.held)
	for l := uintptr(0); l < (end+shift+63)/64; l++ {
		if !lines[l] {
			t.Errorf("line %d of the Session (at %d past a line) is not read", l, shift)
		}
	}

	base := sess.warmStep()
	for _, change := range []struct {
		name string
		f    func()
	}{
		{"Token", func() { sess.Token = 3 }},
		{"closing", func() { sess.closing = 1 }},
		{"runN", func() { sess.runN = 2 }},
		{"unrelEnd", func() { sess.unrelEnd = append(sess.unrelEnd, 9) }},
		{"echo", func() { sess.echo = 5 }},
		{"held[0]", func() { sess.held[0].seq = 7 }},
		{"held[1]", func() { sess.held[1].seq = 11 }},
		{"lastHeard", func() { sess.lastHeard = now.Add(time.Second) }},
		{"the lane", func() {
			if err := sess.send.Push(make([]byte, 40), lane.Critical); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		change.f()
		if got := sess.warmStep(); got == base {
			t.Fatalf("after %s changed, got the same sum %d", change.name, got)
		} else {
			base = got
		}
	}
}
