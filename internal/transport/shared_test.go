package transport

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Labels pushed by reference (SendShared) through a running Server, GSO
// on and off, copy and iovec gather: 30 sessions see 20 labels whose
// shows are 291-byte arrays, each encoded once a revision and shared by
// every session it is sent to, with 7-byte hides and other packets sent by
// copy between them, for 12 ticks with no acks (every event is
// retransmitted on its timer, and every label changed is changed while
// its old revision is in flight: the old one is retransmitted after the
// new one is sent; a GC runs every tick). Every client receives
// byte for byte the datagrams of a lane of its own given copies (Push) of
// the same sends, and no shared array is ever written. Fails if the
// event_id is written into the shared bytes (each viewer's id would land
// in the others' datagrams), or a retransmission sends a newer revision.
func TestSendSharedSameDatagrams(t *testing.T) {
	eachSendMode(t, func(t *testing.T, _ bool) { sendSharedSame(t) })
}

func sendSharedSame(t *testing.T) {
	const sessions, labels, ticks = 30, 20, 12
	s := quietServer(t)
	now := time.Unix(1000, 0)
	rx, sess := attachReceivers(t, s, sessions, now)
	var twins []*lane.Sender
	for range sessions {
		twins = append(twins, lane.NewSender(lane.SenderConfig{Capacity: s.cfg.SendQueue}))
	}
	r := rand.New(rand.NewPCG(11, 406))
	show := make([][]byte, labels) // the current revision of each label
	var revs [][]byte              // every revision made, to check none was written
	var sums []uint64              // their sums when made
	newRev := func(l int) {
		b := make([]byte, wire.Label3DLen)
		b[0] = wire.IDLabel3D
		for i := 5; i < len(b); i++ {
			b[i] = byte(r.Uint32())
		}
		b[1], b[2], b[3], b[4] = 0xEE, 0xEE, 0xEE, 0xEE // whatever is there is not sent
		show[l] = b
		revs = append(revs, b)
		sums = append(sums, sum(b))
	}
	for l := range labels {
		newRev(l)
	}
	want := make([][][]byte, sessions)
	for range ticks {
		for l := range labels {
			if r.IntN(4) == 0 {
				newRev(l) // its old revision stays in the sessions that have it in flight
			}
		}
		for v, ss := range sess {
			ss.lastHeard = now
			for range r.IntN(12) {
				var err, twinErr error
				switch k := r.IntN(4); k {
				case 0, 1:
					m := show[r.IntN(labels)]
					err, twinErr = ss.SendShared(m, lane.Critical), twins[v].Push(bytes.Clone(m), lane.Critical)
				case 2: // a 7-byte packet, by copy
					m := []byte{wire.IDPlayerShow, 0, 0, 0, 0, byte(r.IntN(sessions)), 0}
					err, twinErr = ss.Send(m, lane.Critical), twins[v].Push(m, lane.Critical)
				default: // a player's show, by copy
					m := make([]byte, 38)
					m[0] = wire.IDPlayerShow
					for i := 5; i < len(m); i++ {
						m[i] = byte(r.Uint32())
					}
					err, twinErr = ss.Send(m, lane.Critical), twins[v].Push(m, lane.Critical)
				}
				if err != nil || twinErr != nil {
					t.Fatal(err, twinErr)
				}
			}
			twins[v].Poll(now, func(d []byte) { want[v] = append(want[v], bytes.Clone(d)) })
		}
		s.Flush(now)
		for deadline := time.Now().Add(5 * time.Second); s.Pending() > 0 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		runtime.GC()
		now = now.Add(50 * time.Millisecond)
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
	for i, b := range revs {
		if sum(b) != sums[i] {
			t.Errorf("revision %d: its shared bytes were written (%x...)", i, b[:9])
		}
	}
}

// sum is an FNV-1a of b.
func sum(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
