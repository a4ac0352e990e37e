package lane_test

import (
	"encoding/binary"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// BenchmarkLane measures the CPU cost of one 32-byte event through a
// lane's sender and receiver on a perfect link, with an ack every 16
// events, side by side: our Server → Client lane and plain Go-Back-N (our
// client lane's machines). KCP is left out here: its Update reads the wall
// clock and flushes once per 10 ms interval, so its cost per event is not
// comparable in a tight loop (TestCompareLanes compares it in virtual time).
func BenchmarkLane(b *testing.B) {
	b.Run("dlmp", func(b *testing.B) {
		s := lane.NewSender(lane.SenderConfig{})
		r := lane.NewReceiver(1, 0)
		msg := make([]byte, cmpMsgLen)
		msg[0] = 0x21
		now := time.Unix(0, 0)
		delivered := 0
		deliver := func([]byte) { delivered++ }
		recv := func(d []byte) {
			for ; len(d) >= cmpMsgLen; d = d[cmpMsgLen:] {
				_ = r.Offer(d[:cmpMsgLen], now, deliver)
			}
		}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			binary.LittleEndian.PutUint32(msg[5:], uint32(i))
			if err := s.Push(msg, lane.Critical); err != nil {
				b.Fatal(err)
			}
			if i++; i%16 == 0 {
				s.Poll(now, recv)
				now = now.Add(time.Millisecond)
				s.OnAck(r.Ack(now), now)
			}
		}
		b.ReportMetric(float64(s.Stats().Datagrams)/float64(max(delivered, 1)), "datagrams/event")
	})
	b.Run("gbn", func(b *testing.B) {
		s := lane.NewGBNSender(lane.GBNConfig{Capacity: 1024, Window: 256})
		r := lane.NewGBNReceiver(0)
		msg := make([]byte, cmpMsgLen)
		msg[0] = 0x13
		now := time.Unix(0, 0)
		delivered := 0
		recv := func(d []byte) {
			for ; len(d) >= cmpMsgLen; d = d[cmpMsgLen:] {
				if r.Offer(d[:cmpMsgLen], now) {
					delivered++
				}
			}
		}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			binary.LittleEndian.PutUint32(msg[13:], uint32(i))
			if err := s.Push(msg); err != nil {
				b.Fatal(err)
			}
			if i++; i%16 == 0 {
				s.Poll(now, recv)
				now = now.Add(time.Millisecond)
				a, _ := r.Ack(now)
				s.OnAck(a, now)
			}
		}
		b.ReportMetric(float64(s.Stats().Datagrams)/float64(max(delivered, 1)), "datagrams/event")
	})
}

// BenchmarkSenderBurst measures packing a 400-event join burst (as in the
// comparison) into datagrams and acknowledging it, against copying the
// same bytes into datagrams by hand: the lane's overhead over a memcpy.
func BenchmarkSenderBurst(b *testing.B) {
	msg := make([]byte, cmpMsgLen)
	msg[0] = 0x21
	b.Run("lane", func(b *testing.B) {
		s := lane.NewSender(lane.SenderConfig{})
		now := time.Unix(0, 0)
		b.ReportAllocs()
		for b.Loop() {
			for range 400 {
				_ = s.Push(msg, lane.Critical)
			}
			s.Poll(now, func([]byte) {})
			now = now.Add(time.Millisecond)
			s.OnAck(wire.ClientAck{Ack: uint32(s.Stats().Events)}, now)
		}
	})
	b.Run("memcpy", func(b *testing.B) {
		dgram := make([]byte, 0, wire.MaxDatagram)
		b.ReportAllocs()
		for b.Loop() {
			dgram = dgram[:0]
			for range 400 {
				if len(dgram)+len(msg) > wire.MaxDatagram {
					dgram = dgram[:0]
				}
				dgram = append(dgram, msg...)
			}
		}
	})
}
