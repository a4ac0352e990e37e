package lane_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// BenchmarkCrowdBurst is one server tick of the freeroam race's crossing
// (issue 7) on the reliable lane as the transport runs it: 1000 Senders
// sharing one Slots, each pushed 16 critical events a tick (8 PlayerShow of
// 38 bytes and 8 Label3D of 291, alternated), polled once, with the
// client's cumulative ClientAck of what it was sent 3 ticks before, in the
// server's order: every session's acks, then the pushes, then the polls. Each
// datagram is copied out as the transport's emit does. An op is a tick;
// ns/event is the CPU cost per event, datagram-B/event what is sent. It
// uses only the exported API, so that the same file measures another
// commit (the base in docs/benchmarks/lane.md).
//
// Sub-benchmarks: poll, Poll copying each datagram out (the transport
// before decision 0347), and pollto, PollTo packing them straight into the
// batch's buffers (the transport after).
func BenchmarkCrowdBurst(b *testing.B) {
	b.Run("poll", func(b *testing.B) { crowdBurst(b, false) })
	b.Run("pollto", func(b *testing.B) { crowdBurst(b, true) })
}

func crowdBurst(b *testing.B, pollTo bool) {
	const (
		clients  = 1000
		perTick  = 16
		ackLag   = 3
		tickStep = 50 * time.Millisecond
	)
	show, label := make([]byte, 38), nameLabel(42)
	show[0] = 0x40
	var shared lane.Slots
	senders := make([]*lane.Sender, clients)
	for i := range senders {
		senders[i] = lane.NewSender(lane.SenderConfig{Shared: &shared})
	}
	// sent[t%ackLag][c]: the events client c was sent by tick t, acked at t+ackLag.
	var sent [ackLag + 1][clients]uint32
	out := make([]byte, 0, 64<<10) // the transport's batch: datagrams copied out back to back
	var dgBytes int
	emit := func(d []byte) {
		if len(out)+len(d) > cap(out) {
			out = out[:0]
		}
		out = append(out, d...)
		dgBytes += len(d)
	}
	buf := func() []byte {
		if cap(out)-len(out) < wire.MaxDatagram {
			out = out[:0]
		}
		return out[len(out):]
	}
	packed := func(d []byte) {
		out = out[:len(out)+len(d)] // d is out's next bytes
		dgBytes += len(d)
	}
	now := time.Unix(1_000_000, 0)
	tick := 0
	step := func() {
		now = now.Add(tickStep)
		// In the server's order: the acks the tick received, the world's
		// pushes, the flush's polls.
		if tick >= ackLag {
			for c, s := range senders {
				s.OnAck(wire.ClientAck{Ack: sent[(tick-ackLag)%(ackLag+1)][c], DelayMs: 5}, now)
			}
		}
		for _, s := range senders {
			for i := range perTick {
				msg := show
				if i%2 == 1 {
					msg = label
				}
				if err := s.Push(msg, lane.Critical); err != nil {
					b.Fatal(err)
				}
			}
		}
		for c, s := range senders {
			if pollTo {
				s.PollTo(now, buf, packed)
			} else {
				s.Poll(now, emit)
			}
			sent[tick%(ackLag+1)][c] = uint32(s.Stats().Events)
		}
		tick++
	}
	for range 4 * ackLag { // the steady state: ackLag ticks in flight
		step()
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	dgBytes = 0
	n := 0
	cpu0 := cpuTime()
	b.ReportAllocs()
	for b.Loop() {
		step()
		n++
	}
	cpu := cpuTime() - cpu0
	events := float64(n * clients * perTick)
	b.ReportMetric(float64(cpu.Nanoseconds())/events, "cpu-ns/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/events, "ns/event")
	b.ReportMetric(float64(dgBytes)/events, "datagram-B/event")
	b.ReportMetric(float64(before.HeapInuse)/float64(clients*perTick*(ackLag+1)), "heap-B/event-held")
	var retr int
	for _, s := range senders {
		retr += s.Stats().Retransmits
	}
	if retr != 0 {
		b.Fatalf("got %d retransmissions, want 0: nothing is lost or late", retr)
	}
}

// cpuTime is the process's user and system CPU time so far: on a machine
// shared with other work it is steadier than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// nameLabel is the Label3D of a player's name label as the default
// gamemode attaches it (freeroam's create_label: 0.4 m above the player,
// 40 m), 291 bytes, its text zero after its NUL as on the wire.
func nameLabel(id uint32) []byte {
	l := wire.Label3D{LabelID: id, Active: 1, Color: 0xFFFF80, Z: 0.4, DrawDistance: 40, AttachKind: 1, AttachID: id}
	if err := l.SetText(fmt.Sprintf("bot_%04d", id)); err != nil {
		panic(err)
	}
	return l.Append(nil)
}
