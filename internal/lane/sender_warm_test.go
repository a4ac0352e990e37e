package lane

import (
	"testing"
	"time"
	"unsafe"

	"dlmp/internal/wire"
)

// WarmPoll reads a word of every cache line of the Sender as it lies on
// the heap (where a new Sender's address says its lines start: the
// allocator's header comes before an object with pointers of more than
// 512 bytes; the fields it names, by their offsets: a field moved or added
// so that a line has none of them fails it), and returns the sum of those
// and of the earliest timer and the first queued slot's length, with or
// without either.
func TestWarmPollReadsEveryLine(t *testing.T) {
	shift := uintptr(unsafe.Pointer(NewSender(SenderConfig{}))) % 64
	var s Sender
	offs := []uintptr{
		unsafe.Offsetof(s.cfg) + unsafe.Offsetof(s.cfg.Window), unsafe.Offsetof(s.made), unsafe.Offsetof(s.pendHead),
		unsafe.Offsetof(s.base), unsafe.Offsetof(s.dgSeq), unsafe.Offsetof(s.own), unsafe.Offsetof(s.timers),
		unsafe.Offsetof(s.level), unsafe.Offsetof(s.dupAcks),
		unsafe.Offsetof(s.stats) + unsafe.Offsetof(s.stats.Datagrams), unsafe.Offsetof(s.pushed),
	}
	lines := map[uintptr]bool{}
	for _, o := range offs {
		lines[(o+shift)/64] = true
	}
	for l := uintptr(0); l < (unsafe.Sizeof(s)+shift+63)/64; l++ {
		if !lines[l] {
			t.Errorf("line %d of the Sender (%d bytes, at %d past a line) is not read", l, unsafe.Sizeof(s), shift)
		}
	}

	now := time.Unix(1000, 0)
	snd := NewSender(SenderConfig{})
	want := func() uint32 {
		w := uint32(snd.cfg.Window) + uint32(snd.made) + uint32(snd.pendHead) + snd.base + uint32(snd.dgSeq) +
			uint32(len(snd.own)) + uint32(len(snd.timers)) + uint32(snd.level) + uint32(snd.dupAcks) +
			uint32(snd.stats.Datagrams) + uint32(snd.pushed)
		return w
	}
	if got, w := snd.WarmPoll(), want(); got != w {
		t.Fatalf("new Sender: got %d, want %d", got, w)
	}
	msg := make([]byte, 40)
	msg[0] = wire.IDPlayerShow
	for range 3 {
		if err := snd.Push(msg, Critical); err != nil {
			t.Fatal(err)
		}
	}
	if got, w := snd.WarmPoll(), want()+40+snd.flightNo[snd.next&snd.mask]; got != w {
		t.Fatalf("3 queued: got %d, want %d (the first queued slot's length added)", got, w)
	}
	snd.Poll(now, func([]byte) {})
	if got, w := snd.WarmPoll(), want()+uint32(snd.timers[0].at)+uint32(snd.timers[0].n); got != w {
		t.Fatalf("3 in flight: got %d, want %d (the earliest timer added)", got, w)
	}
	if err := snd.Push(msg[:30], Critical); err != nil {
		t.Fatal(err)
	}
	if got, w := snd.WarmPoll(), want()+uint32(snd.timers[0].at)+uint32(snd.timers[0].n)+30+snd.flightNo[snd.next&snd.mask]; got != w {
		t.Fatalf("3 in flight, 1 queued: got %d, want %d", got, w)
	}
	// A second run sent later: the earliest timer's time and the latest's
	// count, which differ from the first's.
	snd.Poll(now.Add(7*time.Millisecond), func([]byte) {})
	n := len(snd.timers)
	if n < 2 || snd.timers[0].n == snd.timers[n-1].n || snd.timers[0].at == snd.timers[n-1].at {
		t.Fatalf("timers %+v: want two of different times and counts", snd.timers)
	}
	if got, w := snd.WarmPoll(), want()+uint32(snd.timers[0].at)+uint32(snd.timers[n-1].n); got != w {
		t.Fatalf("two runs in flight: got %d, want %d (the earliest timer's time, the latest's count)", got, w)
	}
}
