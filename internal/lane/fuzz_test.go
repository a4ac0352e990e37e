package lane

import (
	"encoding/binary"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// FuzzReceiver feeds a receiver arbitrary packets: it never panics, never
// delivers out of order, and never holds more than its window.
func FuzzReceiver(f *testing.F) {
	f.Add(event(1), event(3), (&wire.Fragment{EventID: 2, Last: 1, Payload: []byte{1, 2, 0, 0, 0}}).Append(nil))
	f.Add((&wire.Fragment{EventID: 1, Payload: []byte{1}}).Append(nil), event(2), []byte{0x0A, 3, 0, 0, 0, 1, 1, 0, 9})
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		r := NewReceiver(1, 16)
		for _, p := range [][]byte{a, b, c, a, c, b} {
			before := r.Next()
			_ = r.Offer(p, t0, func(m []byte) {
				if len(m) < 5 {
					t.Fatalf("delivered %d bytes", len(m))
				}
			})
			if r.Next()-before >= 1<<31 || r.Held() > 16 {
				t.Fatalf("next went from %d to %d, %d held", before, r.Next(), r.Held())
			}
		}
		_ = r.Ack(t0)
	})
}

// FuzzSenderAck feeds a sender arbitrary acks: it never panics and never
// frees more than it sent.
func FuzzSenderAck(f *testing.F) {
	f.Add(uint32(3), uint64(0b101), uint16(10), uint32(1), uint64(0))
	f.Add(uint32(1<<32-1), uint64(1<<63), uint16(65535), uint32(0), uint64(1<<64-1))
	f.Fuzz(func(t *testing.T, ack1 uint32, above1 uint64, delay uint16, ack2 uint32, above2 uint64) {
		s := NewSender(SenderConfig{Capacity: 64, Window: 32})
		for i := range 40 {
			_ = s.Push(message(0x21, 9, uint32(i)), Critical)
		}
		now := t0
		for _, a := range []wire.ClientAck{{Ack: ack1, Above: above1, DelayMs: delay}, {Ack: ack2, Above: above2}} {
			s.Poll(now, func([]byte) {})
			now = now.Add(50 * time.Millisecond)
			s.OnAck(a, now)
			if s.Free() < 0 || s.Free() > 64 || s.InFlight() > 32 {
				t.Fatalf("Free %d InFlight %d", s.Free(), s.InFlight())
			}
		}
		s.Poll(now.Add(time.Second), func(d []byte) {
			if len(d) > wire.MaxDatagram {
				t.Fatalf("datagram of %d bytes", len(d))
			}
			for ; len(d) >= 9; d = d[9:] {
				if id := binary.LittleEndian.Uint32(d[1:5]); id == 0 || id > 40 {
					t.Fatalf("sent event_id %d", id)
				}
			}
		})
	})
}
