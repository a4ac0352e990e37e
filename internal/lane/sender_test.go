package lane

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"dlmp/internal/wire"
)

func TestSenderAssignsGaplessIDsAndPacks(t *testing.T) {
	cases := []struct {
		name      string
		n, size   int
		datagrams int
	}{
		{"three small", 3, 9, 1},
		{"exactly one budget", 12, 100, 1},
		{"one over", 13, 100, 2},
		{"200 of 100", 200, 100, 17},
		{"full-size", 3, wire.MaxDatagram, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSender(SenderConfig{})
			for i := range c.n {
				if err := s.Push(message(0x21, c.size, uint32(i)), Critical); err != nil {
					t.Fatal(err)
				}
			}
			d := poll(s, t0)
			if len(d) != c.datagrams {
				t.Errorf("got %d datagrams, want %d", len(d), c.datagrams)
			}
			for _, g := range d {
				if len(g) > wire.MaxDatagram {
					t.Errorf("datagram of %d bytes, budget %d", len(g), wire.MaxDatagram)
				}
			}
			got := ids(t, d, c.size)
			for i, id := range got {
				if id != uint32(i+1) {
					t.Fatalf("event %d has id %d, want %d", i, id, i+1)
				}
			}
			if len(got) != c.n {
				t.Errorf("got %d events, want %d", len(got), c.n)
			}
		})
	}
}

func TestSenderAckFreesSlots(t *testing.T) {
	s := NewSender(SenderConfig{Capacity: 16})
	for i := range 10 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	if got, want := s.Free(), 6; got != want {
		t.Fatalf("Free() = %d, want %d", got, want)
	}
	poll(s, t0)
	s.OnAck(ackOf(4, 6, 7), t0.Add(ms(100)))
	// 6 and 7 keep their slots until the events below them are acked.
	if got, want := s.Free(), 10; got != want {
		t.Errorf("after ack of 1..4, 6, 7: Free() = %d, want %d", got, want)
	}
	s.OnAck(ackOf(10), t0.Add(ms(110)))
	if got, want := s.Free(), 16; got != want {
		t.Errorf("after ack of all: Free() = %d, want %d", got, want)
	}
	if !s.NextTimeout().IsZero() {
		t.Errorf("NextTimeout() = %v with nothing in flight, want zero", s.NextTimeout())
	}
}

func TestSenderRejectsAckOfUnsent(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 3 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	poll(s, t0)
	for _, a := range []wire.ClientAck{ackOf(3, 5), {Ack: 4}, {Ack: 1<<32 - 1, Above: 1 << 63}} {
		s.OnAck(a, t0.Add(ms(50)))
	}
	if got := s.Stats().BadAcks; got != 3 {
		t.Errorf("BadAcks = %d, want 3", got)
	}
	if got := s.InFlight(); got != 3 {
		t.Errorf("InFlight() = %d after bad acks, want 3", got)
	}
}

func TestSenderRTTSample(t *testing.T) {
	s := NewSender(SenderConfig{})
	_ = s.Push(message(0x21, 9, 0), Critical)
	poll(s, t0)
	s.OnAck(wire.ClientAck{Ack: 1, DelayMs: 30}, t0.Add(ms(130)))
	if got, want := s.SRTT(), ms(100); got != want {
		t.Errorf("SRTT = %v, want %v (130 ms minus 30 ms ack delay)", got, want)
	}
	// RTO = SRTT + 4·RTTVAR + MaxAckDelay = 100 + 200 + 40.
	if got, want := s.RTO(), ms(340); got != want {
		t.Errorf("RTO = %v, want %v", got, want)
	}
	// A retransmitted event gives no sample (Karn).
	_ = s.Push(message(0x21, 9, 1), Critical)
	poll(s, t0.Add(ms(200)))
	poll(s, t0.Add(ms(200+340)))
	s.OnAck(wire.ClientAck{Ack: 2}, t0.Add(ms(1000)))
	if got, want := s.SRTT(), ms(100); got != want {
		t.Errorf("SRTT after an ack of a retransmission = %v, want %v", got, want)
	}
}

func TestSenderFastRetransmitAfterThree(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 6 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
		poll(s, t0.Add(ms(i)))
	}
	now := t0.Add(ms(20)) // long before any timer
	s.OnAck(ackOf(0, 2, 3), now)
	if got := ids(t, poll(s, now), 9); len(got) != 0 {
		t.Fatalf("two later acks: retransmitted %v, want nothing", got)
	}
	s.OnAck(ackOf(0, 2, 3, 4), now)
	if got, want := ids(t, poll(s, now), 9), []uint32{1}; !slices.Equal(got, want) {
		t.Fatalf("three later acks: retransmitted %v, want %v", got, want)
	}
	// The same acks again, or one more ack of an id sent before the
	// retransmission, do not retransmit again.
	s.OnAck(ackOf(0, 2, 3, 4, 6), now)
	if got := ids(t, poll(s, now), 9); len(got) != 0 {
		t.Fatalf("after the fast retransmit: retransmitted %v, want nothing", got)
	}
	if got := s.Stats().FastRetransmits; got != 1 {
		t.Errorf("FastRetransmits = %d, want 1", got)
	}
}

func TestSenderRTOBackoffOnlyMissing(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 4 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	rto := s.RTO() // the timers are set at transmission
	poll(s, t0)
	s.OnAck(ackOf(0, 3), t0.Add(ms(10))) // 3 arrived; 1, 2 and 4 missing
	if got, want := s.NextTimeout(), t0.Add(rto); !got.Equal(want) {
		t.Fatalf("NextTimeout() = %v, want t0+%v", got.Sub(t0), rto)
	}
	if got := ids(t, poll(s, t0.Add(rto-1)), 9); len(got) != 0 {
		t.Fatalf("before the timeout: sent %v", got)
	}
	at := t0.Add(rto)
	if got, want := ids(t, poll(s, at), 9), []uint32{1, 2, 4}; !slices.Equal(got, want) {
		t.Fatalf("at the timeout: sent %v, want %v", got, want)
	}
	// Backed off ×1.5 per transmission.
	for try := 2; try <= 4; try++ {
		wait := s.RTO()
		for i := 1; i < try; i++ {
			wait += wait / 2
		}
		if got, want := s.NextTimeout(), at.Add(wait); !got.Equal(want) {
			t.Fatalf("try %d: NextTimeout() = +%v, want +%v", try, got.Sub(at), wait)
		}
		at = at.Add(wait)
		if got := ids(t, poll(s, at), 9); len(got) != 3 {
			t.Fatalf("try %d: sent %v", try, got)
		}
	}
	if got := s.Stats().Timeouts; got != 12 {
		t.Errorf("Timeouts = %d, want 12", got)
	}
}

func TestSenderDeadLink(t *testing.T) {
	s := NewSender(SenderConfig{MaxTries: 5})
	_ = s.Push(message(0x21, 9, 0), Critical)
	now := t0
	sends := 0
	for i := 0; i < 100 && s.Dead() == nil; i++ {
		sends += len(poll(s, now))
		if next := s.NextTimeout(); !next.IsZero() {
			now = next
		}
	}
	err := s.Dead()
	if !errors.Is(err, ErrDead) || !strings.Contains(err.Error(), "event 1") || !strings.Contains(err.Error(), "5 transmissions") {
		t.Fatalf("Dead() = %v, want ErrDead naming event 1 and 5 transmissions", err)
	}
	if sends != 5 {
		t.Errorf("sent %d times before dying, want 5", sends)
	}
	if err := s.Push(message(0x21, 9, 1), Critical); !errors.Is(err, ErrDead) {
		t.Errorf("Push after death: %v, want ErrDead", err)
	}
}

func TestSenderQueueFullCritical(t *testing.T) {
	s := NewSender(SenderConfig{Capacity: 8})
	for i := range 8 {
		if err := s.Push(message(0x21, 9, uint32(i)), Critical); err != nil {
			t.Fatalf("push %d: %v", i, err)
		}
	}
	err := s.Push(message(0x21, 9, 8), Critical)
	if !errors.Is(err, ErrQueueFull) || !strings.Contains(err.Error(), "0 of 8") {
		t.Fatalf("push into a full queue: %v, want ErrQueueFull saying 0 of 8 free", err)
	}
	// A fragmented message needing more slots than are free is refused whole.
	s = NewSender(SenderConfig{Capacity: 4})
	if err := s.Push(message(0x21, 5*1192, 0), Critical); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("5-fragment message into 4 slots: %v, want ErrQueueFull", err)
	}
	if s.Free() != 4 {
		t.Errorf("Free() = %d after a refused push, want 4", s.Free())
	}
}

func TestSenderSnapshot(t *testing.T) {
	const runClock, setTime = 0x23, 0x21
	s := NewSender(SenderConfig{Capacity: 40})
	_ = s.Push(message(runClock, 11, 1), Snapshot)
	_ = s.Push(message(setTime, 7+2, 2), Critical)
	_ = s.Push(message(runClock, 11, 3), Snapshot) // supersedes seq 1, goes after SetTime
	var seqs []uint32
	for _, d := range poll(s, t0) {
		for len(d) > 0 {
			n := 9
			if d[0] == runClock {
				n = 11
			}
			seqs = append(seqs, uint32(d[5])|uint32(d[0])<<8)
			d = d[n:]
		}
	}
	want := []uint32{setTime<<8 | 2, runClock<<8 | 3}
	if !slices.Equal(seqs, want) {
		t.Fatalf("stream %x, want %x", seqs, want)
	}
	if got := s.Stats().Superseded; got != 1 {
		t.Errorf("Superseded = %d, want 1", got)
	}
	// Once sent, a droppable message is part of the stream: a newer one
	// does not replace it.
	_ = s.Push(message(runClock, 11, 4), Snapshot)
	if got := s.Stats().Superseded; got != 1 {
		t.Errorf("Superseded = %d after pushing behind a sent resync, want 1", got)
	}
	// A droppable never takes the reserved slots; a critical does.
	for s.Free() > DroppableReserve {
		_ = s.Push(message(setTime, 9, 0), Critical)
	}
	if err := s.Push(message(0x22, 9, 5), Snapshot); err != nil {
		t.Fatalf("droppable into the reserve: %v, want nil (dropped)", err)
	}
	if got := s.Stats().Dropped; got != 1 {
		t.Errorf("Dropped = %d, want 1", got)
	}
	if got := s.Free(); got != DroppableReserve {
		t.Errorf("Free() = %d, want %d", got, DroppableReserve)
	}
	if err := s.Push(message(setTime, 9, 0), Critical); err != nil {
		t.Errorf("critical into the reserve: %v", err)
	}
	if err := s.Push(message(runClock, 2000, 0), Snapshot); !errors.Is(err, ErrMessage) {
		t.Errorf("droppable above one datagram: %v, want ErrMessage", err)
	}
}

func TestSenderPushRejectsBadFraming(t *testing.T) {
	s := NewSender(SenderConfig{})
	for _, n := range []int{0, 4, wire.MaxMessage + 1} {
		if err := s.Push(make([]byte, n), Critical); !errors.Is(err, ErrMessage) {
			t.Errorf("Push of %d bytes: %v, want ErrMessage", n, err)
		}
	}
	if err := s.Push(make([]byte, 5), Class(9)); !errors.Is(err, ErrMessage) {
		t.Errorf("Push with class 9: %v, want ErrMessage", err)
	}
}

func TestSenderWindow(t *testing.T) {
	s := NewSender(SenderConfig{Window: 4})
	for i := range 6 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	if got, want := ids(t, poll(s, t0), 9), []uint32{1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("first poll sent %v, want %v", got, want)
	}
	s.OnAck(ackOf(0, 2, 3), t0.Add(ms(10))) // base stays at 1
	if got := ids(t, poll(s, t0.Add(ms(10))), 9); len(got) != 0 {
		t.Fatalf("window full at base 1: sent %v", got)
	}
	s.OnAck(ackOf(4), t0.Add(ms(20)))
	if got, want := ids(t, poll(s, t0.Add(ms(20))), 9), []uint32{5, 6}; !slices.Equal(got, want) {
		t.Fatalf("after the base moved: sent %v, want %v", got, want)
	}
}

func TestSenderSteadyStateAllocs(t *testing.T) {
	s := NewSender(SenderConfig{})
	msg := message(0x21, 40, 0)
	var id uint32
	now := t0
	emit := func([]byte) {}
	cycle := func() {
		for range 10 {
			_ = s.Push(msg, Critical)
		}
		s.Poll(now, emit)
		id += 10
		s.OnAck(wire.ClientAck{Ack: id}, now.Add(ms(50)))
		now = now.Add(ms(33))
	}
	for range 10 {
		cycle()
	}
	if n := testing.AllocsPerRun(100, cycle); n != 0 {
		t.Errorf("steady state allocates %v times per 10 messages, want 0", n)
	}
}

func TestSenderLateHole(t *testing.T) {
	s := NewSender(SenderConfig{InitialRTT: ms(100)})
	for i := range 3 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	poll(s, t0)
	// 1 acked after 100 ms: SRTT 100 ms, loss delay 112.5 ms. 2 and 3 are
	// holes the ack shows, but not late yet.
	s.OnAck(ackOf(1), t0.Add(ms(100)))
	if got := ids(t, poll(s, t0.Add(ms(100))), 9); len(got) != 0 {
		t.Fatalf("holes not yet late: retransmitted %v", got)
	}
	// The same ack 13 ms later: both are late.
	s.OnAck(ackOf(1), t0.Add(ms(113)))
	if got, want := ids(t, poll(s, t0.Add(ms(113))), 9), []uint32{2, 3}; !slices.Equal(got, want) {
		t.Fatalf("late holes: retransmitted %v, want %v", got, want)
	}
	// An ack that acknowledges nothing sent after a hole does not make it
	// lost (a client behind in its reading); DupAcks of them in a row do
	// (the client receives, stuck at the hole). An event beyond what the
	// bitfield shows (ack+65) is not declared lost by an ack, unless it
	// shared a datagram with a lost one.
	s = NewSender(SenderConfig{})
	for i := range 65 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	poll(s, t0)
	for i := range 5 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	poll(s, t0.Add(ms(1))) // 66..70: another datagram, datagram 2
	for i := range DupAcks - 1 {
		s.OnAck(ackOf(0), t0.Add(ms(300+i)))
		if got := ids(t, poll(s, t0.Add(ms(300+i))), 9); len(got) != 0 {
			t.Fatalf("ack 0 number %d after 300 ms: retransmitted %v, want nothing", i+1, got)
		}
	}
	s.OnAck(ackOf(0), t0.Add(ms(310)))
	got := ids(t, poll(s, t0.Add(ms(310))), 9)
	if len(got) != 65 || got[0] != 1 || got[64] != 65 {
		t.Fatalf("ack 0 number %d after 300 ms: retransmitted %v, want 1..65", DupAcks, got)
	}
	// 70 events of 9 bytes fit one datagram: 66..70 were lost with 1..65.
	s = NewSender(SenderConfig{})
	for i := range 70 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	poll(s, t0)
	for range DupAcks {
		s.OnAck(ackOf(0), t0.Add(ms(300)))
	}
	if got := ids(t, poll(s, t0.Add(ms(300))), 9); len(got) != 70 {
		t.Fatalf("%d acks of 0 after 300 ms, one datagram of 70: retransmitted %d, want all 70", DupAcks, len(got))
	}
	// A hole below an event acknowledged from a later datagram is lost
	// at the first ack that shows it late.
	s = NewSender(SenderConfig{})
	_ = s.Push(message(0x21, 9, 0), Critical)
	poll(s, t0) // 1: datagram 1, lost
	_ = s.Push(message(0x21, 9, 1), Critical)
	poll(s, t0.Add(ms(1))) // 2: datagram 2
	a := ackOf(0, 2)
	a.DelayMs = 250 // an RTT sample of 49 ms: 1 is late
	s.OnAck(a, t0.Add(ms(300)))
	if got, want := ids(t, poll(s, t0.Add(ms(300))), 9), []uint32{1}; !slices.Equal(got, want) {
		t.Fatalf("ack of 2 after 300 ms: retransmitted %v, want %v", got, want)
	}
}

// TestSenderLossyIsNotDead: an event past MaxTries does not kill a link
// that keeps acknowledging other events; once the acks stop, it does.
func TestSenderLossyIsNotDead(t *testing.T) {
	s := NewSender(SenderConfig{MaxTries: 3})
	_ = s.Push(message(0x21, 9, 0), Critical)
	now := t0
	poll(s, now)
	var seen []uint32
	for round := range 30 {
		_ = s.Push(message(0x21, 9, uint32(round+1)), Critical)
		now = now.Add(ms(1000))
		poll(s, now)
		seen = append(seen, uint32(round+2))
		// Acknowledge everything but event 1, as long as the bitfield
		// reaches (ids 2..31 sit in bits 0..29 of ack 0).
		s.OnAck(ackOf(0, seen...), now.Add(ms(10)))
		if err := s.Dead(); err != nil {
			t.Fatalf("round %d: dead while acks progress: %v", round, err)
		}
	}
	for i := 0; i < 20 && s.Dead() == nil; i++ {
		now = now.Add(ms(5000))
		poll(s, now)
	}
	if !errors.Is(s.Dead(), ErrDead) {
		t.Fatalf("Dead() = %v once acks stopped, want ErrDead", s.Dead())
	}
}

func TestSenderNextTimeout(t *testing.T) {
	s := NewSender(SenderConfig{Window: 2})
	if !s.NextTimeout().IsZero() {
		t.Fatalf("idle: NextTimeout() = %v, want zero", s.NextTimeout())
	}
	for i := range 3 {
		_ = s.Push(message(0x21, 9, uint32(i)), Critical)
	}
	rto := s.RTO()
	poll(s, t0) // 1 and 2 sent, 3 waits for the window
	if got, want := s.NextTimeout(), t0.Add(rto); !got.Equal(want) {
		t.Errorf("window full: NextTimeout() = +%v, want +%v", got.Sub(t0), rto)
	}
	s.OnAck(ackOf(1), t0.Add(ms(10)))
	if got := s.NextTimeout(); !got.Equal(t0) {
		t.Errorf("window open with 3 queued: NextTimeout() = +%v, want the last Poll (+0)", got.Sub(t0))
	}
	if got, want := ids(t, poll(s, t0.Add(ms(10))), 9), []uint32{3}; !slices.Equal(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if d := poll(s, t0.Add(ms(11))); len(d) != 0 {
		t.Errorf("nothing due: emitted %d datagrams", len(d))
	}
}

// TestProgress: Progress counts messages, and a message is acknowledged
// once all its fragments are; a superseded droppable one stops holding the
// prefix back.
func TestProgress(t *testing.T) {
	s := NewSender(SenderConfig{})
	if q, a := s.Progress(); q != 0 || a != 0 {
		t.Fatalf("empty: %d, %d", q, a)
	}
	s.Push(message(0x21, 20, 1), Critical)   // message 1: event 1
	s.Push(message(0x66, 3000, 2), Critical) // message 2: events 2..4 (fragments)
	s.Push(message(0x22, 20, 3), Critical)   // message 3: event 5
	poll(s, t0)
	if q, a := s.Progress(); q != 3 || a != 0 {
		t.Fatalf("sent, none acked: %d, %d; want 3, 0", q, a)
	}
	s.OnAck(ackOf(3), t0.Add(ms(50))) // message 2 is only partly acked
	if q, a := s.Progress(); q != 3 || a != 1 {
		t.Fatalf("events 1..3 acked: %d, %d; want 3, 1", q, a)
	}
	s.OnAck(ackOf(5), t0.Add(ms(60)))
	if q, a := s.Progress(); q != 3 || a != 3 {
		t.Fatalf("all acked: %d, %d; want 3, 3", q, a)
	}
	s.Push(message(0x23, 20, 4), Snapshot) // queued, never sent
	s.Push(message(0x23, 20, 5), Snapshot) // supersedes it
	if q, a := s.Progress(); q != 5 || a != 4 {
		t.Fatalf("a superseded droppable: %d, %d; want 5, 4", q, a)
	}
}

// TestSenderDroppableNeverSupersedes: two droppable messages with the same
// packet id (two chat lines in one tick) are both delivered; droppable
// messages are only dropped when room is short.
func TestSenderDroppableNeverSupersedes(t *testing.T) {
	s := NewSender(SenderConfig{})
	const chat = 0x08
	s.Push(message(chat, 20, 1), Droppable)
	s.Push(message(chat, 20, 2), Droppable)
	if got := ids(t, poll(s, t0), 20); !slices.Equal(got, []uint32{1, 2}) {
		t.Fatalf("two chat lines sent as events %v, want [1 2]", got)
	}
	if st := s.Stats(); st.Superseded != 0 || st.Dropped != 0 {
		t.Fatalf("stats %+v: nothing superseded or dropped", st)
	}
	for s.Free() > DroppableReserve {
		s.Push(message(0x21, 20, 9), Critical)
	}
	s.Push(message(chat, 20, 3), Droppable)
	if st := s.Stats(); st.Dropped != 1 {
		t.Fatalf("a droppable push with the reserve reached: dropped %d, want 1", st.Dropped)
	}
}
