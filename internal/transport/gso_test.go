package transport

import (
	"bytes"
	"fmt"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// tickFixture is a Server without sockets whose tick the test drives.
func tickFixture(t *testing.T) (*Server, *Session) {
	t.Helper()
	cfg := Config{}
	cfg.fill()
	s := &Server{cfg: cfg, out: make(chan *batch, 16), freeB: make(chan *batch, 16)}
	s.pool.New = func() any { return new(buffer) }
	s.tick.init(s)
	now := time.Unix(1000, 0)
	sess := newSession(s, 1, netip.MustParseAddrPort("127.0.0.1:9"), 1, now)
	sess.confirmed = true
	return s, sess
}

// unrelOf fills a session's unreliable datagrams of this tick with the
// given lengths, each byte its datagram's number and offset.
func unrelOf(sess *Session, lens []int) {
	sess.unrel, sess.unrelEnd = sess.unrel[:0], sess.unrelEnd[:0]
	sess.parts, sess.partEnd = sess.parts[:0], sess.partEnd[:0]
	for i, n := range lens {
		sess.parts = append(sess.parts, uint64(len(sess.unrel))|uint64(n)<<32)
		for j := range n {
			sess.unrel = append(sess.unrel, byte(i*13+j))
		}
		sess.unrelEnd = append(sess.unrelEnd, len(sess.unrel))
		sess.partEnd = append(sess.partEnd, len(sess.parts))
	}
}

// A session's unreliable datagrams go to the writer as runs of one size,
// the last one of a run possibly shorter, at most conn.MaxSegments a run,
// each run one message with its Seg (one UDP GSO send), a lone datagram a
// plain message; together they are the session's bytes, in order. Fails
// when the runs are cut wrongly or every datagram is its own message.
func TestUnreliableRunsOneMessage(t *testing.T) {
	rep := func(n, count int) []int {
		var out []int
		for range count {
			out = append(out, n)
		}
		return out
	}
	type msg struct{ n, seg int }
	for _, c := range []struct {
		name string
		lens []int
		want []msg
	}{
		{"one", []int{300}, []msg{{300, 0}}},
		{"moves", []int{1176, 1176, 588}, []msg{{2940, 1176}}},
		{"equal", []int{1176, 1176, 1176}, []msg{{3528, 1176}}},
		{"longer after", []int{1176, 1176, 1190, 1190, 600, 1176}, []msg{{2352, 1176}, {2980, 1190}, {1176, 0}}},
		{"shorter twice", []int{1000, 500, 400}, []msg{{1500, 1000}, {400, 0}}},
		{"past MaxSegments", append(rep(1176, conn.MaxSegments+2), 10), []msg{{1176 * conn.MaxSegments, 1176}, {2*1176 + 10, 1176}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, sess := tickFixture(t)
			unrelOf(sess, c.lens)
			whole := bytes.Clone(sess.unrel)
			s.tick.step(sess, time.Unix(1000, 0))
			var got []msg
			var cat []byte
			for _, m := range s.tick.out.msgs {
				got = append(got, msg{len(m.Buf), m.Seg})
				cat = append(cat, m.Buf...)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("got messages (bytes, seg) %v, want %v", got, c.want)
			}
			if !bytes.Equal(cat, whole) {
				t.Fatal("the messages' bytes are not the session's datagrams in order")
			}
			var dg int
			for _, m := range s.tick.out.msgs {
				dg += m.Datagrams()
			}
			if dg != len(c.lens) {
				t.Fatalf("the messages carry %d datagrams, want %d", dg, len(c.lens))
			}
		})
	}
}

// The first unreliable datagram is still packed after the session's
// previous datagram (its reliable lane's, an ack) when both fit in one,
// and the run starts after it.
func TestUnreliableFirstPackedAfterPrevious(t *testing.T) {
	s, sess := tickFixture(t)
	s.tick.emit(sess.Addr, []byte("ack"))
	unrelOf(sess, []int{100, 100, 50})
	s.tick.emitSession(sess)
	ms := s.tick.out.msgs
	if len(ms) != 2 || len(ms[0].Buf) != 103 || ms[0].Seg != 0 || len(ms[1].Buf) != 150 || ms[1].Seg != 100 {
		var got []string
		for _, m := range ms {
			got = append(got, fmt.Sprintf("%d/%d", len(m.Buf), m.Seg))
		}
		t.Fatalf("got messages (bytes/seg) %v, want [103/0 150/100]", got)
	}
}

// Over real sockets: a session's moves (PlayerMove-sized packets, as the
// world sends a crowd's viewer) reach the client as whole datagrams of at
// most wire.MaxDatagram, every packet once and in order, whether the writer
// sends them with GSO or, refused, one by one.
func TestUnreliableRunsOverSockets(t *testing.T) {
	for _, gso := range []bool{true, false} {
		t.Run(fmt.Sprintf("gso=%v", gso), func(t *testing.T) {
			if !gso {
				t.Setenv("DLMP_GSO", "0")
			}
			f := newFixture(t, Config{})
			gso = gso && runtime.GOOS == "linux" // elsewhere the moves go one by one
			if f.srv.GSO() != gso {
				t.Fatalf("GSO() = %v, want %v (Linux ≥ 4.18 offers it; DLMP_GSO=0 turns it off)", f.srv.GSO(), gso)
			}
			c := dial(t, f)
			c.connect(f)
			sess := f.w.joined[0]
			const moves = 100
			for i := range moves {
				m := wire.PlayerMove{PlayerID: uint16(i)}
				sess.SendUnreliable(m.Append(nil))
			}
			f.tick(50 * time.Millisecond)
			next := 0
			for next < moves {
				d := c.read(2 * time.Second)
				if d == nil {
					t.Fatalf("got %d of %d moves", next, moves)
				}
				if len(d) > wire.MaxDatagram {
					t.Fatalf("a datagram of %d bytes", len(d))
				}
				for _, p := range packets(t, d) {
					pm, ok := p.(*wire.PlayerMove)
					if !ok {
						continue // a keepalive or a lane datagram
					}
					if int(pm.PlayerID) != next {
						t.Fatalf("got move %d, want %d", pm.PlayerID, next)
					}
					next++
				}
			}
			for deadline := time.Now().Add(5 * time.Second); f.srv.Pending() > 0 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond) // the writer counts after its write
			}
			if st := f.srv.Stats(); gso && st.MessagesOut >= st.DatagramsOut {
				t.Errorf("%d messages for %d datagrams: the moves did not go to the writer as one run (the conn tests check the kernel sends a run as one GSO message)", st.MessagesOut, st.DatagramsOut)
			}
		})
	}
}
