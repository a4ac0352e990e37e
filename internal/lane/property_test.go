package lane_test

import (
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/lane"
	"dlmp/internal/simnet"
	"dlmp/internal/wire"
)

// Message shapes of the property test. Server → Client: 16-byte events
// [0x21][u32 event_id][u32 seq][7 filler], and now and then a large one
// [0x66][u32 event_id][u32 seq][pattern] that the lane fragments. Client →
// Server: 17-byte events [0x13][u64 token][u32 event_id][u32 seq].
const (
	resyncID  = 0x23 // droppable: [0x23][u32 event_id][u32 resync seq][2 filler]
	resyncLen = 11
	smallID   = 0x21
	bigID     = 0x66
	smallLen  = 16
	clientID  = 0x13
	clientLen = 17
	token     = 0xC0FFEE
)

func pattern(seq uint32, i int) byte { return byte(seq*31) ^ byte(i) ^ byte(i>>8) }

// peer holds one side's machines and what it has checked.
type peer struct {
	t        *testing.T
	expected uint32 // next seq to be delivered
}

func (p *peer) check(seq uint32, what string) {
	if seq != p.expected {
		p.t.Fatalf("%s: delivered seq %d, want %d (exactly once, in order)", what, seq, p.expected)
	}
	p.expected++
}

// TestPropertyLanes pushes 1,000,000 events each way through links whose
// loss (0–20 %), duplication, reordering, latency and jitter change every
// 50,000 events, in virtual time, and checks that every event arrives
// exactly once and in order, that no machine grows past its bounds, and
// that the heap does not grow.
func TestPropertyLanes(t *testing.T) {
	const (
		total   = 1_000_000
		segment = 50_000
		tick    = 10 * time.Millisecond
	)
	rng := rand.New(rand.NewPCG(2026, 11))
	downCfg := func() simnet.Config {
		return simnet.Config{
			Latency:   time.Duration(10+rng.IntN(90)) * time.Millisecond,
			Jitter:    time.Duration(rng.IntN(30)) * time.Millisecond,
			Loss:      rng.Float64() * 0.20,
			Duplicate: rng.Float64() * 0.05,
			Reorder:   rng.Float64() * 0.10,
			MTU:       wire.MaxDatagram,
		}
	}
	down, up := simnet.New(downCfg(), 1), simnet.New(downCfg(), 2)

	// Server side: S → C sender (leaving room for a ServerAck in each
	// datagram), GBN receiver. Client side: receiver, GBN sender (leaving
	// room for a ClientAck).
	const window = 512
	snd := lane.NewSender(lane.SenderConfig{Budget: wire.MaxDatagram - wire.ServerAckLen, Window: window})
	gbr := lane.NewGBNReceiver(0)
	rcv := lane.NewReceiver(token, window)
	gbs := lane.NewGBNSender(lane.GBNConfig{Budget: wire.MaxDatagram - wire.ClientAckLen, Capacity: 1024, Window: 256})

	client := &peer{t: t, expected: 0}
	server := &peer{t: t, expected: 0}
	var pushedDown, pushedUp uint32
	small := make([]byte, smallLen)
	big := make([]byte, wire.MaxMessage)
	cev := make([]byte, clientLen)
	out := make([]byte, 0, wire.MaxDatagram)

	// Droppable resyncs: pushed every 20 ticks, superseded while queued.
	// Delivered ones must come in increasing order, and the last one
	// accepted must arrive (nothing supersedes it).
	var resyncPushed, resyncLastAccepted, resyncLastSeen uint32
	resync := make([]byte, resyncLen)
	deliverDown := func(m []byte) {
		seq := binary.LittleEndian.Uint32(m[5:9])
		if m[0] == resyncID {
			if seq <= resyncLastSeen {
				t.Fatalf("resync %d delivered after %d", seq, resyncLastSeen)
			}
			resyncLastSeen = seq
			return
		}
		if m[0] == bigID {
			for i := 9; i < len(m); i++ {
				if m[i] != pattern(seq, i) {
					t.Fatalf("large message seq %d: byte %d corrupted", seq, i)
				}
			}
		}
		client.check(seq, "Server → Client")
	}
	now := time.Unix(0, 0)
	var heapMid uint64
	for steps := 0; client.expected < total || server.expected < total || resyncLastSeen != resyncLastAccepted; steps++ {
		if steps > 5_000_000 {
			t.Fatalf("no end after %d ticks: %d and %d delivered", steps, client.expected, server.expected)
		}
		if lo := min(client.expected, server.expected); lo/segment != (lo+1)/segment || steps == 0 {
			down.SetConfig(downCfg())
			up.SetConfig(downCfg())
		}
		if heapMid == 0 && client.expected >= total/10 && server.expected >= total/10 {
			heapMid = heapInUse()
		}

		// Server tick: push, poll, send with the ServerAck in front.
		for n := rng.IntN(400); n > 0 && pushedDown < total; n-- {
			if rng.IntN(5000) == 0 {
				size := wire.MaxDatagram + 1 + rng.IntN(wire.MaxMessage-wire.MaxDatagram)
				if snd.Free() < size/1000+2 {
					break
				}
				m := big[:size]
				m[0] = bigID
				binary.LittleEndian.PutUint32(m[5:], pushedDown)
				for i := 9; i < size; i++ {
					m[i] = pattern(pushedDown, i)
				}
				mustPush(t, snd.Push(m, lane.Critical))
			} else {
				if snd.Free() == 0 {
					break
				}
				small[0] = smallID
				binary.LittleEndian.PutUint32(small[5:], pushedDown)
				mustPush(t, snd.Push(small, lane.Critical))
			}
			pushedDown++
		}
		if steps%20 == 0 && pushedDown < total {
			resyncPushed++
			resync[0] = resyncID
			binary.LittleEndian.PutUint32(resync[5:], resyncPushed)
			dropped := snd.Stats().Dropped
			mustPush(t, snd.Push(resync, lane.Snapshot))
			if snd.Stats().Dropped == dropped {
				resyncLastAccepted = resyncPushed
			}
		}
		sent := false
		snd.Poll(now, func(d []byte) {
			out = out[:0]
			if a, ok := gbr.Ack(now); ok {
				out = a.Append(out)
			}
			down.Send(now, append(out, d...))
			sent = true
		})
		if !sent && gbr.AckDue() {
			a, _ := gbr.Ack(now)
			down.Send(now, a.Append(out[:0]))
		}

		// Client tick: push, poll, send with the ClientAck in front.
		for n := rng.IntN(100); n > 0 && pushedUp < total && gbs.Free() > 0; n-- {
			cev[0] = clientID
			binary.LittleEndian.PutUint64(cev[1:], token)
			binary.LittleEndian.PutUint32(cev[13:], pushedUp)
			mustPush(t, gbs.Push(cev))
			pushedUp++
		}
		sent = false
		ackDue := rcv.AckDue()
		gbs.Poll(now, func(d []byte) {
			out = out[:0]
			if ackDue {
				a := rcv.Ack(now)
				out = a.Append(out)
			}
			up.Send(now, append(out, d...))
			sent = true
		})
		if !sent && ackDue {
			a := rcv.Ack(now)
			up.Send(now, a.Append(out[:0]))
		}

		now = now.Add(tick)

		// Arrivals at both ends.
		down.Deliver(now, func(d []byte) {
			for len(d) > 0 {
				var n int
				switch d[0] {
				case wire.IDServerAck:
					var a wire.ServerAck
					n, _ = a.Parse(d)
					gbs.OnAck(a, now)
					d = d[n:]
					continue
				case wire.IDFragment:
					var f wire.Fragment
					var err error
					if n, err = f.Parse(d); err != nil {
						t.Fatalf("fragment: %v", err)
					}
				case smallID:
					n = smallLen
				case resyncID:
					n = resyncLen
				default:
					t.Fatalf("unexpected packet 0x%02X", d[0])
				}
				if err := rcv.Offer(d[:n], now, deliverDown); err != nil {
					t.Fatal(err)
				}
				d = d[n:]
			}
		})
		up.Deliver(now, func(d []byte) {
			if d[0] == wire.IDClientAck {
				var a wire.ClientAck
				n, _ := a.Parse(d)
				snd.OnAck(a, now)
				d = d[n:]
			}
			for ; len(d) > 0; d = d[clientLen:] {
				if gbr.Offer(d[:clientLen], now) {
					server.check(binary.LittleEndian.Uint32(d[13:17]), "Client → Server")
				}
			}
		})

		if err := snd.Dead(); err != nil {
			t.Fatalf("Server → Client link died: %v", err)
		}
		if err := gbs.Dead(); err != nil {
			t.Fatalf("Client → Server link died: %v", err)
		}
		if snd.Slots() > lane.DefaultCapacity || rcv.Held() > window || down.InFlight() > 20_000 || up.InFlight() > 20_000 {
			t.Fatalf("bounds: %d sender slots, %d held, %d and %d datagrams in flight",
				snd.Slots(), rcv.Held(), down.InFlight(), up.InFlight())
		}
	}
	if resyncLastSeen != resyncLastAccepted {
		t.Errorf("last resync delivered %d, last accepted %d", resyncLastSeen, resyncLastAccepted)
	}
	if ss := snd.Stats(); ss.Superseded == 0 {
		t.Errorf("no resync was ever superseded: the droppable path was not exercised")
	}
	if grow := int64(heapInUse()) - int64(heapMid); grow > 8<<20 {
		t.Errorf("heap grew %d bytes between 10 %% and 100 %% of the events", grow)
	}
	ss, rs, gs, gr := snd.Stats(), rcv.Stats(), gbs.Stats(), gbr.Stats()
	t.Logf("S→C: %d events, %d sends (%.3f per event), %d fast, %d timeouts, %d duplicates seen; resyncs %d pushed, %d superseded, %d dropped",
		ss.Events, ss.Sends, float64(ss.Sends)/float64(ss.Events), ss.FastRetransmits, ss.Timeouts, rs.Duplicates,
		resyncPushed, ss.Superseded, ss.Dropped)
	t.Logf("C→S: %d events, %d sends, %d timeouts; server saw %d duplicates, %d from the future",
		gs.Pushed, gs.Sends, gs.Timeouts, gr.Duplicates, gr.Future)
	t.Logf("links: down %+v, up %+v, virtual time %v", down.Stats(), up.Stats(), now.Sub(time.Unix(0, 0)))
	if rs.Duplicates == 0 || gr.Duplicates == 0 || gr.Future == 0 {
		t.Errorf("the links never duplicated or reordered: the property was not exercised")
	}
}

func mustPush(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}
