package lane

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

// sharedMsg is one "label": bytes encoded once per revision and shared by
// reference, replaced (never written) when it changes; orig is a copy of
// each revision pushed, to check that the Sender never wrote them.
type sharedMsg struct {
	revs [][]byte
	orig [][]byte
}

func (m *sharedMsg) change(pid byte, n int, seq uint32) []byte {
	b := message(pid, n, seq)
	m.revs = append(m.revs, b)
	m.orig = append(m.orig, slices.Clone(b))
	return b
}

// A Sender given messages by reference (PushShared) emits byte for byte
// the datagrams of a Sender given copies of them (Push), through the same
// pushes, losses, acks, fast retransmissions and timeouts, with shared
// slots; a message changed (new bytes) while its old revision is in flight
// retransmits the old one; and the Sender never writes the bytes it was
// given. Fails if the event_id is written into the shared bytes, or not
// into the datagram, or a shared message is sent from another's bytes.
func TestPushSharedSameDatagrams(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			var slotsA, slotsB Slots
			a := NewSender(SenderConfig{Shared: &slotsA, Capacity: 256, Window: 64})
			b := NewSender(SenderConfig{Shared: &slotsB, Capacity: 256, Window: 64})
			labels := make([]sharedMsg, 5)
			sizes := []int{label3DLen, 9, slotRoom, slotRoom + 1, wire.MaxDatagram, wire.MaxDatagram + 300}
			now := t0
			var seq uint32
			var cumA uint32
			for step := range 400 {
				for range rng.IntN(6) {
					seq++
					var msg, copyMsg []byte
					switch i := rng.IntN(len(labels) + 2); {
					case i < len(labels): // a label: its current revision, or a new one
						l := &labels[i]
						if len(l.revs) == 0 || rng.IntN(4) == 0 {
							l.change(smallPID, sizes[rng.IntN(len(sizes))], seq)
						}
						msg = l.revs[len(l.revs)-1]
						copyMsg = slices.Clone(msg)
					default: // shared bytes used once
						msg = message(smallPID, sizes[rng.IntN(len(sizes))], seq)
						copyMsg = slices.Clone(msg)
					}
					errA := a.Push(copyMsg, Critical)
					errB := b.PushShared(msg, Critical)
					if (errA == nil) != (errB == nil) {
						t.Fatalf("step %d: Push returned %v, PushShared %v", step, errA, errB)
					}
				}
				now = now.Add(ms(10 + rng.IntN(40)))
				var dA, dB [][]byte
				a.Poll(now, func(d []byte) { dA = append(dA, slices.Clone(d)) })
				b.Poll(now, func(d []byte) { dB = append(dB, slices.Clone(d)) })
				if len(dA) != len(dB) {
					t.Fatalf("step %d: got %d datagrams by reference, want %d", step, len(dB), len(dA))
				}
				for i := range dA {
					if !bytes.Equal(dA[i], dB[i]) {
						t.Fatalf("step %d datagram %d: got %x by reference, want %x", step, i, dB[i], dA[i])
					}
				}
				// Acks that skip some events: the rest is retransmitted,
				// fast or on the timer.
				if rng.IntN(3) > 0 && a.next > 1 {
					cumA = max(cumA, min(a.next-1, cumA+uint32(rng.IntN(8))))
					var above []uint32
					for id := cumA + 2; id < a.next && id < cumA+20; id++ {
						if rng.IntN(2) == 0 {
							above = append(above, id)
						}
					}
					ack := ackOf(cumA, above...)
					at := now.Add(ms(rng.IntN(30)))
					a.OnAck(ack, at)
					b.OnAck(ack, at)
				}
			}
			if sa, sb := a.Stats(), b.Stats(); sa != sb {
				t.Errorf("got stats %+v by reference, want %+v", sb, sa)
			}
			if st := a.Stats(); st.Retransmits == 0 || st.Timeouts == 0 {
				t.Errorf("got %+v: the test wants retransmissions and timeouts", st)
			}
			for i, l := range labels {
				for r := range l.revs {
					if !bytes.Equal(l.revs[r], l.orig[r]) {
						t.Errorf("label %d rev %d: its bytes were written: got %x, want %x", i, r, l.revs[r], l.orig[r])
					}
				}
			}
		})
	}
}

// label3DLen is the size of the crowd's shared message (wire.Label3DLen).
const label3DLen = 291

// A label changed while its old revision is in flight: the old revision's
// retransmission carries the old bytes under its own event_id, the new one
// the new bytes, and neither byte array is written.
func TestPushSharedChangeInFlight(t *testing.T) {
	s := NewSender(SenderConfig{})
	old := message(smallPID, label3DLen, 1)
	keepOld := slices.Clone(old)
	if err := s.PushShared(old, Critical); err != nil {
		t.Fatal(err)
	}
	first := poll(s, t0)
	cur := message(smallPID, label3DLen, 2) // the change: new bytes
	keepCur := slices.Clone(cur)
	if err := s.PushShared(cur, Critical); err != nil {
		t.Fatal(err)
	}
	second := poll(s, t0.Add(ms(5)))
	// Nothing acknowledged: event 1's timer expires first, then 2's.
	var retx [][]byte
	for now := t0.Add(ms(5)); len(retx) < 2 && now.Before(t0.Add(ms(2000))); now = now.Add(ms(5)) {
		retx = append(retx, poll(s, now)...)
	}
	want := func(msg []byte, id uint32) []byte {
		w := slices.Clone(msg)
		w[1], w[2], w[3], w[4] = byte(id), byte(id>>8), byte(id>>16), byte(id>>24)
		return w
	}
	for _, c := range []struct {
		name string
		got  [][]byte
		want []byte
	}{
		{"first send of rev 1", first, want(keepOld, 1)},
		{"first send of rev 2", second, want(keepCur, 2)},
		{"retransmission of rev 1", retx[:1], want(keepOld, 1)},
		{"retransmission of rev 2", retx[1:2], want(keepCur, 2)},
	} {
		if len(c.got) != 1 || !bytes.Equal(c.got[0], c.want) {
			t.Errorf("%s: got %x, want %x", c.name, c.got, c.want)
		}
	}
	if s.Stats().Timeouts != 2 {
		t.Errorf("got %d timeouts, want 2", s.Stats().Timeouts)
	}
	if !bytes.Equal(old, keepOld) || !bytes.Equal(cur, keepCur) {
		t.Errorf("the shared bytes were written: got %x and %x", old[:9], cur[:9])
	}
}

// PushShared keeps the Push's rules: a bad message is rejected, a full
// queue refuses a critical one, a droppable one without room is dropped
// and counted, a dead link returns its death.
func TestPushSharedRules(t *testing.T) {
	s := NewSender(SenderConfig{Capacity: 40})
	if err := s.PushShared(make([]byte, 4), Critical); err == nil {
		t.Errorf("a 4-byte message: got no error, want ErrMessage")
	}
	for i := range 40 {
		if err := s.PushShared(message(smallPID, 20, uint32(i)), Critical); err != nil {
			t.Fatalf("push %d: %v", i, err)
		}
	}
	if err := s.PushShared(message(smallPID, 20, 99), Droppable); err != nil || s.Stats().Dropped != 1 {
		t.Errorf("a droppable push into a full queue: got %v and %d dropped, want nil and 1", err, s.Stats().Dropped)
	}
	if err := s.PushShared(message(smallPID, 20, 99), Critical); err == nil {
		t.Errorf("a critical push into a full queue: got no error, want ErrQueueFull")
	}
	s.Release()
	if err := s.PushShared(message(smallPID, 20, 99), Critical); err == nil {
		t.Errorf("a push after Release: got no error, want ErrDead")
	}
}
