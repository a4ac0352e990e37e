package transport

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// A crowd's reliable datagrams through a running Server (its writer, GSO
// on and off, copy and iovec gather): 40 sessions each pushed 0 to 30
// events a tick of 5 to 1,100 bytes (so that a tick's lane datagrams pass
// several of a batch's arena chunks, and a session's lane sends one to
// several datagrams), with keepalive echoes and packets of their own packed
// after the lane's last datagram when they fit, for 12 ticks with
// retransmissions, the batches and their arenas reused as the writer gives
// them back. Every client receives byte for byte the datagrams a lane of
// its own (Poll, its own buffer) and the packing rule make of the same
// sends. Fails if a datagram is written over by the next one in the arena
// (the bytes used not recorded), or if a packet packed after a datagram
// goes elsewhere. The writer writes each batch before the next Flush.
func TestLaneDatagramsSameBytes(t *testing.T) {
	eachSendMode(t, func(t *testing.T, _ bool) { laneSameBytes(t, 0) })
}

// TestLaneDatagramsSameBytesWriterBehind is TestLaneDatagramsSameBytes
// with the writer a batch behind: each Flush runs while the last tick's
// batch may not be written yet, so the tick must take another batch and
// arena. Fails if a batch or its arena is reused before the writer wrote
// it, or handed out twice (the review of decision 0400: a batch given back
// to the tick when it is sent makes 2 of the 4 modes lose datagrams).
// One batch behind, the sessions' unreliable buffers are not dropped
// (decision 0318 drops at two).
func TestLaneDatagramsSameBytesWriterBehind(t *testing.T) {
	eachSendMode(t, func(t *testing.T, _ bool) { laneSameBytes(t, 1) })
}

// laneSameBytes runs the crowd's ticks, each Flush once at most behind
// batches are left unwritten, and compares what every client received.
func laneSameBytes(t *testing.T, behind int) {
	const sessions, ticks = 40, 12
	s := quietServer(t)
	now := time.Unix(1000, 0)
	rx, sess := attachReceivers(t, s, sessions, now)
	var twins []*lane.Sender
	for range sessions {
		twins = append(twins, lane.NewSender(lane.SenderConfig{Capacity: s.cfg.SendQueue, MaxAckDelay: s.cfg.ackDelay()})) // the sessions' timers
	}
	r := rand.New(rand.NewPCG(10, 400))
	want := make([][][]byte, sessions)
	for tick := range ticks {
		for v, ss := range sess {
			ss.lastHeard = now
			for range r.IntN(31) {
				m := make([]byte, 5+r.IntN(1096))
				m[0] = wire.IDPlayerShow
				for i := 5; i < len(m); i++ {
					m[i] = byte(r.Uint32())
				}
				if err := ss.Send(m, lane.Critical); err != nil {
					t.Fatal(err)
				}
				if err := twins[v].Push(m, lane.Critical); err != nil {
					t.Fatal(err)
				}
			}
			var dgs [][]byte
			twins[v].Poll(now, func(d []byte) { dgs = append(dgs, bytes.Clone(d)) })
			packAfter := func(p []byte) {
				if n := len(dgs); n > 0 && len(dgs[n-1])+len(p) <= wire.MaxDatagram {
					dgs[n-1] = append(dgs[n-1], p...)
					return
				}
				dgs = append(dgs, bytes.Clone(p))
			}
			if r.IntN(3) == 0 {
				ss.echo, ss.echoDue = uint32(tick*1000+v), true
				packAfter((&wire.ServerKeepalive{Echo: uint32(tick*1000 + v)}).Append(nil))
			}
			if r.IntN(3) == 0 {
				var c Session // the packing of a session without a server
				for range 1 + r.IntN(40) {
					p := make([]byte, 20+r.IntN(200))
					for i := range p {
						p[i] = byte(r.Uint32())
					}
					ss.SendUnreliable(p)
					c.SendUnreliable(p)
				}
				start := 0
				for i, end := range c.unrelEnd {
					if i == 0 {
						packAfter(c.unrel[:end])
					} else {
						dgs = append(dgs, bytes.Clone(c.unrel[start:end]))
					}
					start = end
				}
			}
			want[v] = append(want[v], dgs...)
		}
		s.Flush(now)
		for deadline := time.Now().Add(5 * time.Second); s.Pending() > behind && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		now = now.Add(50 * time.Millisecond)
	}
	for deadline := time.Now().Add(5 * time.Second); s.Pending() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if d := s.Stats().UnreliableDropped; d != 0 {
		t.Fatalf("%d unreliable datagrams dropped: the writer fell two batches behind", d)
	}
	var retr int
	for _, tw := range twins {
		retr += tw.Stats().Retransmits
	}
	if retr == 0 {
		t.Fatal("no retransmission: the test should cover them")
	}
	for v, c := range rx {
		got := readDatagrams(t, c, len(want[v]))
		for i := range want[v] {
			if !bytes.Equal(got[i], want[v][i]) {
				t.Fatalf("session %d, datagram %d of %d: got %d bytes, want %d (%x... / %x...)", v, i, len(want[v]),
					len(got[i]), len(want[v][i]), got[i][:min(12, len(got[i]))], want[v][i][:min(12, len(want[v][i]))])
			}
		}
	}
}

// The tick takes the batch the writer gave back last, and never one of the
// reader's: after batches of growing lists come back in turn, the next
// tick's is the last one's (fails when taken in turn, as from a queue, or
// from the reader's list).
func TestTickTakesLastWrittenBatch(t *testing.T) {
	s := &Server{out: make(chan *batch, 16), freeB: make(chan *batch, 16), freeT: make(chan *batch, 32)}
	s.tick.init(s)
	var tickBatches []*batch
	for i := range 4 {
		b := &batch{seq: uint64(i + 1), msgs: make([]conn.Message, 10*(i+1))}
		tickBatches = append(tickBatches, b)
		s.recycle(b)
	}
	s.recycle(&batch{msgs: make([]conn.Message, 1)}) // the reader's
	for i := 3; i >= 0; i-- {
		s.tick.getBatch()
		if got := s.tick.out; got != tickBatches[i] {
			t.Fatalf("got the batch of room %d, want %d's (room %d)", cap(got.msgs), i, cap(tickBatches[i].msgs))
		}
		if len(s.tick.out.msgs) != 0 || s.tick.out.seq != 0 {
			t.Fatalf("a taken batch holds %d messages, seq %d: want it empty", len(s.tick.out.msgs), s.tick.out.seq)
		}
	}
	s.tick.getBatch()
	if cap(s.tick.out.msgs) != 0 {
		t.Fatalf("got a batch of room %d, want a new one: the reader's are not the tick's", cap(s.tick.out.msgs))
	}
}

// The tick keeps at most MaxIdleBatches written batches, the last ones
// written: those a writer that fell behind made are dropped (fails
// without the bound, or if it drops the latest).
func TestTickKeepsFewIdleBatches(t *testing.T) {
	s := &Server{out: make(chan *batch, 16), freeB: make(chan *batch, 16), freeT: make(chan *batch, 32)}
	s.tick.init(s)
	var all []*batch
	for i := range 12 {
		b := &batch{seq: uint64(i + 1)}
		all = append(all, b)
		s.recycle(b)
	}
	s.tick.getBatch()
	if got := s.tick.out; got != all[11] {
		t.Fatal("took another batch than the last written")
	}
	if got, want := len(s.tick.batches), MaxIdleBatches-1; got != want {
		t.Fatalf("the tick keeps %d batches besides the one taken, want %d", got, want)
	}
	for i, b := range s.tick.batches {
		if want := all[12-MaxIdleBatches+i]; b != want {
			t.Fatalf("kept batch %d is not the %d-th last written", i, MaxIdleBatches-i)
		}
	}
}
