package server

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"dlmp/internal/netvar"
)

// The secrecy test's vars. The three secret ones carry 8-byte markers.
const (
	kSecret = "secret_ent"    // Vehicle Data(8) Filter, cleared when filtered out
	kMasked = "secret_masked" // Vehicle Data(8) Filter, masked by its default
	kGlobal = "secret_global" // Global Data(8) Filter
	kPVS    = "pvs_ent"       // Vehicle UInt SendPVS: streaming, not secrecy
	kPlayer = "secret_player" // Player Data(8) Filter: the identity guard over recycled slots
)

var maskDefault = []byte("uuuuuuuu")

// eligibility is the gamemode's state the filters read. Only the world
// goroutine touches it (inside Do, and the filters the store runs).
type eligibility struct {
	allow       map[netvar.Ref][]netvar.PlayerID
	allowGlobal []netvar.PlayerID
	streamed    map[netvar.Ref][]netvar.PlayerID
}

// secrecyVars registers the test's vars in the order of perm (a
// permutation of 0..4): the manifest must not depend on it. el is nil on a
// client, whose filters never run.
func secrecyVars(el *eligibility, perm []int) func(r *netvar.Registry) {
	ent := func(e netvar.Ref, _ any) []netvar.PlayerID { return nil }
	glob := ent
	if el != nil {
		ent = func(e netvar.Ref, _ any) []netvar.PlayerID { return el.allow[e] }
		glob = func(netvar.Ref, any) []netvar.PlayerID { return el.allowGlobal }
	}
	regs := []func(r *netvar.Registry){
		func(r *netvar.Registry) { r.Register(kSecret).SetVehicle().Data(8).Filter(ent) },
		func(r *netvar.Registry) { r.Register(kMasked).SetVehicle().Data(8).SetDefault(maskDefault).Filter(ent) },
		func(r *netvar.Registry) { r.Register(kGlobal).SetGlobal().Data(8).Filter(glob) },
		func(r *netvar.Registry) { r.Register(kPVS).SetVehicle().UInt().SendPVS() },
		func(r *netvar.Registry) { r.Register(kPlayer).SetPlayer().Data(8).Filter(ent) },
	}
	return func(r *netvar.Registry) {
		for _, i := range perm {
			regs[i](r)
		}
	}
}

func toggle(s []netvar.PlayerID, p netvar.PlayerID) []netvar.PlayerID {
	if i := slices.Index(s, p); i >= 0 {
		return slices.Delete(slices.Clone(s), i, i+1)
	}
	return append(slices.Clone(s), p)
}

func without(s []netvar.PlayerID, p netvar.PlayerID) []netvar.PlayerID {
	return slices.DeleteFunc(slices.Clone(s), func(q netvar.PlayerID) bool { return q == p })
}

// TestSecrecyByByteScan runs a seeded random schedule of sets, clears,
// filter changes with their invalidations, streaming changes, joins and
// leaves over real UDP, captures every datagram the server sends each
// client, and checks that no client's bytes ever contain a marker it was
// never eligible for, and that every client converges to the server's
// values (or the mask) once the schedule ends.
func TestSecrecyByByteScan(t *testing.T) {
	const (
		seed     = 20261129
		ops      = 3000
		batch    = 25
		vehicles = 6
	)
	rng := rand.New(rand.NewPCG(seed, 7))
	el := &eligibility{allow: map[netvar.Ref][]netvar.PlayerID{}, streamed: map[netvar.Ref][]netvar.PlayerID{}}
	srv := startNetvars(t, secrecyVars(el, []int{0, 1, 2, 3, 4}), func(e netvar.Ref) []netvar.PlayerID { return el.streamed[e] })
	clientVars := func() func(r *netvar.Registry) { return secrecyVars(nil, rng.Perm(5)) }

	alive := map[netvar.PlayerID]*peer{}
	var all []*peer
	// Every client creates every other player it knows of with their
	// UserID (what a PlayerShow would do, decision 0156), and forgets a
	// leaver: slots are recycled by the joins below.
	used := map[netvar.PlayerID]bool{}
	recycled := 0
	join := func() {
		p := dialPeer(t, srv, clientVars())
		if used[p.id()] {
			recycled++
		}
		used[p.id()] = true
		alive[p.id()] = p
		all = append(all, p)
		uid := userID(t, srv, p.id())
		for id, q := range alive {
			if q != p {
				q.c.NetvarPlayerCreated(uint16(p.id()), uid)
				p.c.NetvarPlayerCreated(uint16(id), userID(t, srv, id))
			}
		}
	}
	for range 4 {
		join()
	}
	refs := make([]netvar.Ref, vehicles)
	for i := range refs {
		refs[i] = netvar.Ref{Kind: netvar.KindVehicle, ID: uint16(100 + i)}
	}
	// permitted[p][marker]: p passed the filter at some moment the
	// marker was the value. Updated inside Do after every operation.
	permitted := map[*peer]map[string]bool{}
	var markers [][]byte
	counter := uint64(0)
	newMarker := func() []byte {
		counter++
		m := make([]byte, 8)
		binary.LittleEndian.PutUint64(m, counter<<16|uint64(rng.Uint32()&0xFFFF))
		m[6], m[7] = 0xD1, 0x3E // distinctive high bytes
		markers = append(markers, m)
		return m
	}
	grant := func(st *netvar.Store) {
		for _, ref := range refs {
			for _, k := range []string{kSecret, kMasked} {
				m, ok := st.Get(ref, k).([]byte)
				if !ok {
					continue
				}
				for _, id := range el.allow[ref] {
					if p := alive[id]; p != nil {
						mark(permitted, p, m)
					}
				}
			}
		}
		for id := range alive {
			ref := netvar.PlayerRef(uint16(id))
			m, ok := st.Get(ref, kPlayer).([]byte)
			if !ok {
				continue
			}
			for _, to := range el.allow[ref] {
				if p := alive[to]; p != nil {
					mark(permitted, p, m)
				}
			}
		}
		if m, ok := st.GetGlobal(kGlobal).([]byte); ok {
			for _, id := range el.allowGlobal {
				if p := alive[id]; p != nil {
					mark(permitted, p, m)
				}
			}
		}
	}
	pick := func() *peer {
		ids := make([]netvar.PlayerID, 0, len(alive))
		for id := range alive {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		return alive[ids[rng.IntN(len(ids))]]
	}

	var streamIns []struct {
		p   *peer
		ref netvar.Ref
	}
	for done := 0; done < ops; done += batch {
		// Joins and leaves happen between batches: Dial blocks.
		switch r := rng.IntN(12); {
		case r == 0 && len(alive) > 2:
			p := pick()
			do(t, srv, func(*netvar.Store, time.Time) {
				// Every allow list, players' too: the server may not have
				// read the leaver's ClientDisconnect yet (decision 0339).
				for ref := range el.allow {
					el.allow[ref] = without(el.allow[ref], p.id())
				}
				for _, ref := range refs {
					el.streamed[ref] = without(el.streamed[ref], p.id())
				}
				el.allowGlobal = without(el.allowGlobal, p.id())
				delete(el.allow, netvar.PlayerRef(uint16(p.id()))) // the slot's next occupant starts unseen
			})
			delete(alive, p.id())
			p.c.Close()
			for _, q := range alive {
				q.c.NetvarPlayerRemoved(uint16(p.id()))
			}
		case r == 1 && len(alive) < 6:
			join()
		}
		streamIns = streamIns[:0]
		do(t, srv, func(st *netvar.Store, now time.Time) {
			for range batch {
				ref := refs[rng.IntN(len(refs))]
				p := pick()
				switch r := rng.IntN(100); {
				case r < 12:
					if err := st.Set(now, netvar.PlayerRef(uint16(pick().id())), kPlayer, newMarker()); err != nil {
						t.Errorf("Set player: %v", err)
					}
				case r < 17:
					subject := netvar.PlayerRef(uint16(pick().id()))
					el.allow[subject] = toggle(el.allow[subject], p.id())
					if err := st.Invalidate([]netvar.PlayerID{p.id()}, []netvar.Ref{subject}, kPlayer); err != nil {
						t.Errorf("Invalidate player: %v", err)
					}
				case r < 40:
					k := kSecret
					if r%2 == 1 {
						k = kMasked
					}
					if err := st.Set(now, ref, k, newMarker()); err != nil {
						t.Errorf("Set: %v", err)
					}
				case r < 50:
					if err := st.SetGlobal(now, kGlobal, newMarker()); err != nil {
						t.Errorf("SetGlobal: %v", err)
					}
				case r < 55:
					st.Set(now, ref, []string{kSecret, kMasked}[r%2], nil)
				case r < 70:
					el.allow[ref] = toggle(el.allow[ref], p.id())
					var err error
					switch r % 3 {
					case 0: // one player, one entity
						err = st.Invalidate([]netvar.PlayerID{p.id()}, []netvar.Ref{ref}, kSecret, kMasked)
					case 1: // one player, every entity
						err = st.Invalidate([]netvar.PlayerID{p.id()}, nil, kSecret, kMasked)
					case 2: // every player, one entity
						err = st.Invalidate(nil, []netvar.Ref{ref}, kSecret, kMasked)
					}
					if err != nil {
						t.Errorf("Invalidate: %v", err)
					}
				case r < 75:
					el.allowGlobal = toggle(el.allowGlobal, p.id())
					if err := st.Invalidate([]netvar.PlayerID{p.id()}, nil, kGlobal); err != nil {
						t.Errorf("Invalidate global: %v", err)
					}
				case r < 88:
					if err := st.Set(now, ref, kPVS, float64(rng.Uint32())); err != nil {
						t.Errorf("Set pvs: %v", err)
					}
				default:
					was := slices.Contains(el.streamed[ref], p.id())
					el.streamed[ref] = toggle(el.streamed[ref], p.id())
					if !was {
						streamIns = append(streamIns, struct {
							p   *peer
							ref netvar.Ref
						}{p, ref})
					}
				}
				grant(st)
			}
		})
		// A client asks for an entity's vars when it is streamed in.
		for _, s := range streamIns {
			s.p.c.RequestResync(s.ref)
		}
		time.Sleep(20 * time.Millisecond) // a tick of traffic
	}

	// Convergence: every live client holds the server's value where it is
	// eligible (or streamed, for the PVS var), the mask or nothing where
	// it is not.
	type want struct {
		p     *peer
		ref   netvar.Ref
		key   string
		value any
	}
	var wants []want
	do(t, srv, func(st *netvar.Store, _ time.Time) {
		for _, p := range alive {
			for _, ref := range refs {
				for _, k := range []string{kSecret, kMasked} {
					v := st.Get(ref, k)
					if !slices.Contains(el.allow[ref], p.id()) {
						v = nil
						if k == kMasked {
							v = maskDefault
						}
					}
					wants = append(wants, want{p, ref, k, v})
				}
				if slices.Contains(el.streamed[ref], p.id()) {
					wants = append(wants, want{p, ref, kPVS, st.Get(ref, kPVS)})
				}
			}
			v := st.GetGlobal(kGlobal)
			if !slices.Contains(el.allowGlobal, p.id()) {
				v = nil
			}
			wants = append(wants, want{p, netvar.Ref{}, kGlobal, v})
			for id := range alive {
				ref := netvar.PlayerRef(uint16(id))
				v := st.Get(ref, kPlayer)
				if !slices.Contains(el.allow[ref], p.id()) {
					v = nil
				}
				wants = append(wants, want{p, ref, kPlayer, v})
			}
		}
	})
	// A failure here does not stop the scan below.
	if why := poll(10*time.Second, func() (bool, string) {
		for _, w := range wants {
			if got := w.p.c.GetNetVar(w.ref, w.key); !netvar.Equal(got, w.value) {
				return false, fmt.Sprintf("player %d %v %s = %v, want %v", w.p.id(), w.ref, w.key, got, w.value)
			}
		}
		return true, ""
	}); why != "" {
		t.Errorf("convergence: %s", why)
	}
	for _, p := range alive {
		if err := p.c.Err(); err != nil {
			t.Errorf("player %d's connection ended: %v", p.id(), err)
		}
	}

	// The byte scan.
	found, leaks := 0, 0
	for _, p := range all {
		dgrams := p.tap.datagrams()
		payloads, _ := p.received()
		for _, m := range markers {
			inWire := false
			for _, d := range dgrams {
				if containsBits(d, m) {
					inWire = true
					break
				}
			}
			inPayload := false
			for _, d := range payloads {
				if containsBits(d, m) {
					inPayload = true
					break
				}
			}
			if permitted[p][string(m)] {
				if inWire {
					found++
				}
				continue
			}
			if inWire || inPayload {
				leaks++
				if leaks <= 5 {
					t.Errorf("player %d received marker %x it was never eligible for (datagram %v, payload %v)", p.id(), m, inWire, inPayload)
				}
			}
		}
	}
	if leaks > 0 {
		t.Fatalf("%d leaks", leaks)
	}
	// The scan must be able to see markers at all: eligible clients got
	// many of theirs.
	if found < len(markers)/4 {
		t.Fatalf("the scan found only %d eligible markers of %d set: it does not see the values", found, len(markers))
	}
	if recycled == 0 {
		t.Fatal("no slot was recycled: the schedule does not exercise the identity guard")
	}
	t.Logf("%d ops, %d markers, %d clients (%d in recycled slots), %d eligible deliveries seen on the wire, 0 leaks", ops, len(markers), len(all), recycled, found)
}

func mark(permitted map[*peer]map[string]bool, p *peer, m []byte) {
	if permitted[p] == nil {
		permitted[p] = map[string]bool{}
	}
	permitted[p][string(m)] = true
}
