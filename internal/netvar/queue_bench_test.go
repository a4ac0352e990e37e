package netvar

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"dlmp/internal/bits"
)

// resyncQueues is what the crowd benchmark drives: Queues and the
// baseline kept in queue_old_test.go.
type resyncQueues interface {
	Add(p PlayerID, ent Ref, e QueueEntry)
	Drain(rate, perPlayer int, fn func(p PlayerID, ent Ref, e QueueEntry)) int
}

const (
	crowdPlayers  = 1000 // clients, and player entities they ask for
	crowdAdds     = 8    // pull-on-visible requests per client per tick
	crowdPrefill  = 2000 // requests per client before the run: ~865 of 1000 queued
	crowdRate     = 32   // the default drains: server-wide
	crowdPerPlyer = 8    // and per player
)

// crowdRefs are the player entities asked for, tick after tick: a fixed
// random stream so both structures see the same requests.
func crowdRefs(n int) []Ref {
	rng := rand.New(rand.NewPCG(7, 7))
	refs := make([]Ref, n)
	for i := range refs {
		refs[i] = PlayerRef(uint16(rng.IntN(crowdPlayers)))
	}
	return refs
}

// BenchmarkQueueCrowd is issue 7's load run on the queues alone: 1000
// players each add 8 QueueAll entries for player entities a tick, into
// queues already deep (2000 requests each before the run: ~865 of the 1000
// entities queued; 32 drain a tick, so most requests merge into a queued
// QueueAll entry), then one Drain(32, 8). One op is one tick; ns/add is the tick
// divided by its 8000 adds. old is the structure before session 6.
func BenchmarkQueueCrowd(b *testing.B) {
	refs := crowdRefs(1 << 16)
	for _, c := range []struct {
		name string
		make func() resyncQueues
	}{
		{"old", func() resyncQueues { return newOldQueues() }},
		{"new", func() resyncQueues { return NewQueues() }},
	} {
		b.Run(c.name, func(b *testing.B) {
			qs := c.make()
			k := 0
			next := func() Ref {
				k = (k + 1) & (len(refs) - 1)
				return refs[k]
			}
			for p := range PlayerID(crowdPlayers) {
				for range crowdPrefill {
					qs.Add(p, next(), QueueAll)
				}
			}
			served := 0
			b.ReportAllocs()
			ticks := 0
			for b.Loop() {
				for p := range PlayerID(crowdPlayers) {
					for range crowdAdds {
						qs.Add(p, next(), QueueAll)
					}
				}
				served += qs.Drain(crowdRate, crowdPerPlyer, func(PlayerID, Ref, QueueEntry) {})
				ticks++
			}
			if served != crowdRate*ticks {
				b.Fatalf("served %d in %d ticks, want %d", served, ticks, crowdRate*ticks)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ticks*crowdPlayers*crowdAdds), "ns/add")
		})
	}
}

// oldResyncRequest is ResyncRequest before session 6: one pass, the
// entities collected in a slice allocated per request.
func oldResyncRequest(st *Store, p PlayerID, payload []byte) error {
	r := bits.NewReader(payload)
	var ents []Ref
	for r.ReadBool() {
		e := Ref{Kind(r.ReadBits(KindBits)), uint16(r.ReadBits(EntityIDBits))}
		if e.Kind == KindNone {
			r.Fail(fmt.Errorf("kind none"))
		}
		ents = append(ents, e)
	}
	if err := firstErr(r.Err(), trailing(&r)); err != nil {
		st.stats.ResyncBadRequests++
		return fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	for _, e := range ents {
		st.QueueEntity(p, e)
	}
	return nil
}

// BenchmarkResyncRequest: the crowd's requests through the store, 8 (and
// 24) player entities each from 1000 ready clients, into the (new) queues,
// which fill up: run it long (1000000x) to measure the steady state. old
// parses as before session 6. One op is one request.
func BenchmarkResyncRequest(b *testing.B) {
	r := NewRegistry()
	r.SetLogger(discard())
	r.Register("hp").SetPlayer().UByte()
	r.Seal()
	players := make([]PlayerID, crowdPlayers)
	for i := range players {
		players[i] = PlayerID(i)
	}
	refs := crowdRefs(1 << 16)
	for _, size := range []int{crowdAdds, 24} {
		payloads := make([][]byte, 1024)
		for i := range payloads {
			payloads[i] = AppendResyncRequest(nil, refs[i*size:(i+1)*size])
		}
		for _, c := range []struct {
			name string
			req  func(st *Store, p PlayerID, payload []byte) error
		}{
			{"old", oldResyncRequest},
			{"new", (*Store).ResyncRequest},
		} {
			b.Run(fmt.Sprintf("refs-%d/%s", size, c.name), func(b *testing.B) {
				st, err := NewStore(r, newFakeWorld(players...), func(PlayerID, Message, []byte) {}, Config{})
				if err != nil {
					b.Fatal(err)
				}
				for _, p := range players {
					st.Handshake(p)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if err := c.req(st, PlayerID(i%crowdPlayers), payloads[i&(len(payloads)-1)]); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}
