package transport

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// crowdSends is what a crowd test's viewer is sent on a tick: its
// packets of its own and its runs of spans of the world's buffer, in
// order, and whether a keepalive echo goes before them.
type crowdSends struct {
	echo  bool
	items []crowdItem
}

// crowdItem is a packet of the viewer's own (own != nil) or a run of
// spans of the world's buffer.
type crowdItem struct {
	own  []byte
	runs []uint64
}

// crowdTick draws a viewer's sends of a tick: a run alone (a crowd
// viewer's moves, half of them), a packet of its own before or after a
// run, a run after a packet after a run, an empty run and two runs one
// after the other, packets of its own alone, an echo before them; runs of
// up to 150 packets with neighbours in the buffer (merged pieces) and
// spans past its end (dropped).
func crowdTick(r *rand.Rand, movers int, sizes []int, offs []int) crowdSends {
	run := func() []uint64 {
		var out []uint64
		for range r.IntN(151) {
			id := r.IntN(movers)
			out = append(out, uint64(offs[id])|uint64(sizes[id])<<32)
			if r.IntN(6) == 0 && id+1 < movers { // its neighbour: one piece
				out = append(out, uint64(offs[id+1])|uint64(sizes[id+1])<<32)
			}
		}
		if r.IntN(10) == 0 {
			out = append(out, uint64(offs[movers-1]+sizes[movers-1])|42<<32) // past the end
		}
		return out
	}
	own := func() crowdItem {
		b := make([]byte, 20+r.IntN(200))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return crowdItem{own: b}
	}
	s := crowdSends{echo: r.IntN(4) == 0}
	switch k := r.IntN(10); {
	case k < 5:
		s.items = []crowdItem{{runs: run()}}
	case k == 5:
		s.items = []crowdItem{own(), {runs: run()}}
	case k == 6:
		s.items = []crowdItem{{runs: run()}, own(), own()}
	case k == 7:
		s.items = []crowdItem{{runs: run()}, own(), {runs: run()}}
	case k == 8:
		s.items = []crowdItem{{runs: nil}, {runs: run()}, {runs: run()}}
	default:
		s.items = []crowdItem{own()}
	}
	return s
}

// send queues s's packets on sess, the spans as runs of buf.
func (s crowdSends) send(sess *Session, buf []byte) {
	for _, it := range s.items {
		if it.own != nil {
			sess.SendUnreliable(it.own)
		} else {
			sess.SendUnreliableSpans(buf, it.runs)
		}
	}
}

// want returns the datagrams s gives when every packet is copied into the
// session as it comes (a session without a server: the packing before
// decisions 0355 and 0388), after the echo when there is one: packed
// before the first datagram when it fits, else its own.
func (s crowdSends) want(buf []byte, echo []byte) [][]byte {
	var c Session
	s.send(&c, buf)
	var out [][]byte
	start := 0
	for _, end := range c.unrelEnd {
		out = append(out, bytes.Clone(c.unrel[start:end]))
		start = end
	}
	if s.echo {
		if len(out) > 0 && len(echo)+len(out[0]) <= wire.MaxDatagram {
			out[0] = append(bytes.Clone(echo), out[0]...)
		} else {
			out = append([][]byte{echo}, out...)
		}
	}
	return out
}

// A crowd of 60 sessions through a running Server (its writer goroutine,
// GSO on and off, the writer's copy and iovec gather lists), each sent
// its runs of the tick's shared buffer and packets of its own in the
// orders a world sends them, tick after tick with the buffer written in
// place between ticks (packets of 20 to 300 bytes, so that datagrams and
// GSO runs come in many sizes): every client receives byte for byte the
// datagrams the copying path makes of the same sends, in order. It passes
// on the base before decision 0388 too (docs/benchmarks/moves9.md); it
// fails when a run is cut into other datagrams than the packets queued
// one by one, when a packet after a run goes before it, or when a run is
// sent from another tick's list.
func TestCrowdMovesSameDatagrams(t *testing.T) {
	eachSendMode(t, func(t *testing.T, _ bool) {
		crowdSameDatagrams(t)
	})
}

func crowdSameDatagrams(t *testing.T) {
	const viewers, movers, ticks = 60, 300, 10
	s := quietServer(t)
	now := time.Unix(1000, 0)
	rx, sess := attachReceivers(t, s, viewers, now)
	r := rand.New(rand.NewPCG(9, 388))
	sizes, offs := make([]int, movers), make([]int, movers)
	total := 0
	for i := range sizes {
		sizes[i] = 42
		if i%3 == 0 {
			sizes[i] = 20 + r.IntN(281)
		}
		offs[i] = total
		total += sizes[i]
	}
	buf := make([]byte, total)
	want := make([][][]byte, viewers)
	for tick := range ticks {
		for i := range buf { // the world's buffer, written in place
			buf[i] = byte(r.Uint32())
		}
		for v, ss := range sess {
			cs := crowdTick(r, movers, sizes, offs)
			ss.lastHeard = now
			if cs.echo {
				ss.echo, ss.echoDue = uint32(tick*1000+v), true
			}
			cs.send(ss, buf)
			want[v] = append(want[v], cs.want(buf, (&wire.ServerKeepalive{Echo: uint32(tick*1000 + v)}).Append(nil))...)
		}
		s.Flush(now)
		for deadline := time.Now().Add(5 * time.Second); s.Pending() > 0 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond) // a writer two behind drops moves (decision 0318)
		}
		now = now.Add(50 * time.Millisecond)
	}
	if st := s.Stats(); st.UnreliableDropped != 0 {
		t.Fatalf("%d unreliable datagrams dropped", st.UnreliableDropped)
	}
	for v, c := range rx {
		got := readDatagrams(t, c, len(want[v]))
		for i := range want[v] {
			if !bytes.Equal(got[i], want[v][i]) {
				t.Fatalf("viewer %d, datagram %d of %d: got %d bytes, want %d (%x... / %x...)", v, i, len(want[v]), len(got[i]), len(want[v][i]), got[i][:min(12, len(got[i]))], want[v][i][:min(12, len(want[v][i]))])
			}
		}
	}
}
