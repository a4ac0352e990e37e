package server

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"dlmp/internal/netvar"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// userID reads a player's UserID on the world goroutine.
func userID(t *testing.T, srv *Server, id netvar.PlayerID) uint32 {
	t.Helper()
	var uid uint32
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Do(ctx, func(w *world.World) {
		if p := w.Player(uint16(id)); p != nil {
			uid = p.UserID()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return uid
}

// packetIDs lists the ids of the packets in the datagrams.
func packetIDs(t *testing.T, dgrams [][]byte) []byte {
	t.Helper()
	var sp wire.Splitter
	var ids []byte
	for _, d := range dgrams {
		for len(d) > 0 {
			p, n, err := sp.Next(d)
			if err != nil {
				t.Fatalf("a datagram from the server does not split: %v", err)
			}
			ids = append(ids, p.ID())
			d = d[n:]
		}
	}
	return ids
}

// orderVars registers ten vars of assorted codecs in the given order.
func orderVars(order []int) func(r *netvar.Registry) {
	regs := []func(r *netvar.Registry){
		func(r *netvar.Registry) { r.Register("a_bool").SetVehicle().Bool() },
		func(r *netvar.Registry) { r.Register("b_short").SetVehicle().Short() },
		func(r *netvar.Registry) { r.Register("c_str").SetVehicle().String(32) },
		func(r *netvar.Registry) { r.Register("d_float").SetVehicle().Float() },
		func(r *netvar.Registry) { r.Register("e_vec").SetVehicle().Vector() },
		func(r *netvar.Registry) { r.Register("f_uint").SetGlobal().UInteger(12) },
		func(r *netvar.Registry) { r.Register("g_color").SetVehicle().Color() },
		func(r *netvar.Registry) { r.Register("h_enum").SetVehicle().Enum([]any{"red", "green", "blue"}) },
		func(r *netvar.Registry) { r.Register("i_auto").SetVehicle().Auto() },
		func(r *netvar.Registry) { r.Register("j_double").SetGlobal().Double().SetDefault(2.5) },
	}
	return func(r *netvar.Registry) {
		for _, i := range order {
			regs[i](r)
		}
	}
}

func TestManifestIndependentOfRegistrationOrder(t *testing.T) {
	forward := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	backward := []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}
	s1 := startNetvars(t, orderVars(forward), nil)
	s2 := startNetvars(t, orderVars(backward), nil)
	// The client registers in yet another order, and one var not at all
	// (it gets a synthetic entry from the manifest).
	p1 := dialPeer(t, s1, orderVars([]int{3, 1, 4, 5, 9, 2, 6, 0, 7}))
	p2 := dialPeer(t, s2, orderVars([]int{3, 1, 4, 5, 9, 2, 6, 0, 7}))
	waitReady(t, p1, p2)
	for _, p := range []*peer{p1, p2} { // OnPacket runs after the client applied (and acked) the manifest
		eventually(t, 5*time.Second, "the manifest handed to OnPacket", func() (bool, string) {
			_, kinds := p.received()
			return len(kinds) > 0, "no netvar packet handed to OnPacket"
		})
	}
	m1, k1 := p1.received()
	m2, k2 := p2.received()
	if len(m1) == 0 || k1[0] != wire.IDNetvarManifest || len(m2) == 0 || k2[0] != wire.IDNetvarManifest {
		t.Fatalf("first netvar packets %x and %x, want the manifest", k1, k2)
	}
	if !bytes.Equal(m1[0], m2[0]) {
		t.Fatalf("the manifests differ with the registration order:\n%x\n%x", m1[0], m2[0])
	}
	ent := netvar.Ref{Kind: netvar.KindVehicle, ID: 3}
	values := map[string]any{
		"a_bool": true, "b_short": -1234.0, "c_str": "hello", "d_float": 1.5,
		"e_vec": netvar.Vector{X: 1, Y: -2, Z: 3.25}, "g_color": netvar.Color{R: 1, G: 2, B: 3, A: 255},
		"h_enum": "blue", "i_auto": "anything",
	}
	do(t, s2, func(st *netvar.Store, now time.Time) {
		for k, v := range values {
			if err := st.Set(now, ent, k, v); err != nil {
				t.Errorf("Set %s: %v", k, err)
			}
		}
		st.SetGlobal(now, "f_uint", 4000)
	})
	values["f_uint"] = 4000.0
	eventually(t, 5*time.Second, "the client decodes every var", func() (bool, string) {
		for k, want := range values {
			ref := ent
			if k == "f_uint" {
				ref = netvar.Ref{}
			}
			if got := p2.c.GetNetVar(ref, k); !netvar.Equal(got, want) {
				return false, k + " differs"
			}
		}
		return true, ""
	})
	if got := p2.c.GetGlobal("j_double"); got != 2.5 {
		t.Errorf("the manifest's default of j_double = %v, want 2.5", got)
	}
}

func TestNoUpdateBeforeHandshake(t *testing.T) {
	vars := func(r *netvar.Registry) {
		r.Register("weather").SetGlobal().UByte()
		r.Register("open").SetVehicle().UInt()
	}
	srv := startNetvars(t, vars, nil)
	p := dialPeerHolding(t, srv, vars, true)
	ent := netvar.Ref{Kind: netvar.KindVehicle, ID: 9}
	for i := range 15 {
		do(t, srv, func(st *netvar.Store, now time.Time) {
			st.SetGlobal(now, "weather", i)
			st.Set(now, ent, "open", 1000+i)
			if st.Ready(p.id()) {
				t.Fatal("handshake complete with every announce held")
			}
		})
		time.Sleep(20 * time.Millisecond)
	}
	for _, id := range packetIDs(t, p.tap.datagrams()) {
		switch id {
		case wire.IDNetvarManifest, wire.IDNetvarResync, wire.IDNetvarUpdate, wire.IDFragment:
			t.Fatalf("the server sent packet 0x%02x before the handshake", id)
		}
	}
	p.tap.holdSync.Store(false) // the next announce (within 3 s) gets through
	eventually(t, 5*time.Second, "bootstrap after the handshake", func() (bool, string) {
		if p.c.GetGlobal("weather") != 14.0 || p.c.GetNetVar(ent, "open") != 1014.0 {
			return false, "not converged"
		}
		// OnPacket runs after the client applied the packet, on its loop:
		// converged values can be seen before the packets are handed over.
		if _, kinds := p.received(); !bytes.Contains(kinds, []byte{wire.IDNetvarManifest}) {
			return false, "converged, the manifest not yet handed to OnPacket"
		}
		return true, ""
	})
	if n := p.c.NetvarStats().Announces; n < 2 {
		t.Errorf("announces = %d, want the held ones retried", n)
	}
	_, kinds := p.received()
	if len(kinds) == 0 {
		t.Fatal("no netvar packet received after the handshake")
	}
	if kinds[0] != wire.IDNetvarManifest {
		t.Errorf("first netvar packet 0x%02x, want the manifest", kinds[0])
	}
	if n := bytes.Count(kinds, []byte{wire.IDNetvarManifest}); n != 1 {
		t.Errorf("%d manifests, want 1 (repeat announces are ignored)", n)
	}
}

func TestRecycledIndexOverTheWire(t *testing.T) {
	vars := func(r *netvar.Registry) { r.Register("job").SetPlayer().String(16) }
	srv := startNetvars(t, vars, nil)
	a := dialPeer(t, srv, vars)
	b := dialPeer(t, srv, vars)
	waitReady(t, a, b)
	slot := b.id()
	uidB := userID(t, srv, slot)
	a.c.NetvarPlayerCreated(uint16(slot), uidB)
	do(t, srv, func(st *netvar.Store, now time.Time) { st.Set(now, netvar.PlayerRef(uint16(slot)), "job", "bob") })
	eventually(t, 5*time.Second, "bob", func() (bool, string) {
		return a.c.GetNetVar(netvar.PlayerRef(uint16(slot)), "job") == "bob", "A does not see B's job"
	})

	// B leaves; the slot is free, then taken by C.
	b.c.Close()
	a.c.NetvarPlayerRemoved(uint16(slot)) // what a PlayerShow hide does
	eventually(t, 5*time.Second, "B gone", func() (bool, string) { return userID(t, srv, slot) == 0, "B still connected" })
	c := dialPeer(t, srv, vars)
	waitReady(t, c)
	if c.id() != slot {
		t.Fatalf("C took slot %d, want B's recycled slot %d", c.id(), slot)
	}
	uidC := userID(t, srv, slot)
	if uidC <= uidB {
		t.Fatalf("C's UserID %d is not after B's %d", uidC, uidB)
	}
	if got := c.c.GetNetVar(netvar.PlayerRef(uint16(slot)), "job"); got != nil {
		t.Fatalf("C inherited B's job %v", got)
	}
	// C's value reaches A before A creates C: buffered, not applied.
	before, _ := a.received()
	do(t, srv, func(st *netvar.Store, now time.Time) { st.Set(now, netvar.PlayerRef(uint16(slot)), "job", "carl") })
	eventually(t, 5*time.Second, "C's update at A", func() (bool, string) {
		got, _ := a.received()
		return len(got) > len(before), "no update"
	})
	if got := a.c.GetNetVar(netvar.PlayerRef(uint16(slot)), "job"); got != nil {
		t.Fatalf("A applied %v to a slot it has not created", got)
	}
	a.c.NetvarPlayerCreated(uint16(slot), uidC)
	if got := a.c.GetNetVar(netvar.PlayerRef(uint16(slot)), "job"); got != "carl" {
		t.Fatalf("after creating C, A reads %v, want carl", got)
	}
}

func TestClientSetAndDebounceEndToEnd(t *testing.T) {
	vars := func(r *netvar.Registry) {
		r.Register("typing").SetPlayer().Bool().ClientOwned().Debounce(1).SetDefault(false)
		r.Register("stamina").SetLocalPlayer().UByte().Predictable()
	}
	srv := startNetvars(t, vars, nil)
	var changes []any // server-side typing changes, on the world goroutine
	do(t, srv, func(st *netvar.Store, _ time.Time) {
		st.Hook = func(ent netvar.Ref, v *netvar.Var, newValue, _ any) {
			if v.Name() == "typing" {
				changes = append(changes, newValue)
			}
		}
	})
	serverChanges := func() []any {
		var out []any
		do(t, srv, func(*netvar.Store, time.Time) { out = slices.Clone(changes) })
		return out
	}
	a := dialPeerHolding(t, srv, vars, true)
	me := netvar.PlayerRef(uint16(a.id()))
	for _, v := range []bool{true, false, true} {
		if err := a.c.SetNetVar("typing", v); err != nil {
			t.Fatal(err)
		}
	}
	if got := a.c.GetNetVar(me, "typing"); got != true {
		t.Fatalf("local apply before the manifest: %v, want true", got)
	}
	b := dialPeer(t, srv, vars)
	waitReady(t, b)
	b.c.NetvarPlayerCreated(uint16(a.id()), userID(t, srv, a.id()))
	a.tap.holdSync.Store(false)
	waitReady(t, a)
	eventually(t, 5*time.Second, "B sees A typing", func() (bool, string) {
		return b.c.GetNetVar(me, "typing") == true, "not yet"
	})
	if got := serverChanges(); len(got) != 1 || got[0] != true {
		t.Fatalf("server changes after the buffered sets = %v, want [true] (latest wins, one ClientSet)", got)
	}
	// A burst inside the window: the first applies at once, the rest
	// coalesce into one pending slot that settles on false, which is what
	// is stored: nothing more changes.
	time.Sleep(1100 * time.Millisecond) // a quiet window
	for _, v := range []bool{false, true, false, true, false} {
		a.c.SetNetVar("typing", v)
	}
	eventually(t, 5*time.Second, "B sees A stop typing", func() (bool, string) {
		return b.c.GetNetVar(me, "typing") == false, "still typing"
	})
	time.Sleep(1200 * time.Millisecond) // past the window's close
	if got := serverChanges(); !slices.Equal(got, []any{true, false}) {
		t.Errorf("server changes = %v, want [true false]: the burst must coalesce", got)
	}
	if got := b.c.GetNetVar(me, "typing"); got != false {
		t.Errorf("B reads %v after the window, want false", got)
	}

	// Predictable: a local apply, then the server's value wins; the
	// LocalPlayer var never reaches anyone else.
	if err := a.c.SetNetVar("stamina", 40); err != nil {
		t.Fatal(err)
	}
	if got := a.c.GetNetVar(me, "stamina"); got != 40.0 {
		t.Fatalf("predicted stamina = %v, want 40", got)
	}
	do(t, srv, func(st *netvar.Store, now time.Time) { st.Set(now, me, "stamina", 70) })
	eventually(t, 5*time.Second, "confirmed stamina", func() (bool, string) {
		return a.c.GetNetVar(me, "stamina") == 70.0, "not confirmed"
	})
	a.mu.Lock()
	var predicted, confirmed bool
	for _, ch := range a.changes {
		if ch.Name == "stamina" {
			predicted = predicted || ch.Predicted && ch.NewValue == 40.0
			confirmed = confirmed || !ch.Predicted && ch.NewValue == 70.0
		}
	}
	a.mu.Unlock()
	if !predicted || !confirmed {
		t.Errorf("A's stamina hooks: predicted 40 seen %v, confirmed 70 seen %v; want both", predicted, confirmed)
	}
	if got := b.c.GetNetVar(me, "stamina"); got != nil {
		t.Errorf("B holds A's LocalPlayer stamina %v", got)
	}
}

func TestConsoleCommands(t *testing.T) {
	vars := func(r *netvar.Registry) {
		r.Register("typing").SetPlayer().Bool().ClientOwned().Debounce(1)
	}
	srv := startNetvars(t, vars, nil)
	p := dialPeer(t, srv, vars)
	waitReady(t, p)
	if out := srv.Command("network_selftest"); !strings.Contains(out, " passed, 0 failed") {
		t.Errorf("network_selftest = %q, want a pass", out)
	}
	out := srv.Command("network_dump")
	for _, want := range []string{"typing", "clientOwned", "debounce=1..1", "handshake=done", "glue: "} {
		if !strings.Contains(out, want) {
			t.Errorf("network_dump lacks %q:\n%s", want, out)
		}
	}
	if out := srv.Command("network_nope"); !strings.Contains(out, "unknown command") {
		t.Errorf("an unknown command answered %q", out)
	}
}

func TestClientSetFloodgate(t *testing.T) {
	vars := func(r *netvar.Registry) {
		r.Register("typing").SetPlayer().Bool().ClientOwned().Debounce(0.1)
	}
	srv := startNetvars(t, vars, nil)
	p := dialPeer(t, srv, vars)
	waitReady(t, p)
	for i := range 60 { // twice the default 30 per second, at once
		if err := p.c.SetNetVar("typing", i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 5*time.Second, "the floodgate", func() (bool, string) {
		var st netvar.Stats
		do(t, srv, func(s *netvar.Store, _ time.Time) { st = s.Stats() })
		return st.ClientSetFlooded >= 30, "fewer than 30 ClientSets flooded"
	})
	if err := p.c.Err(); err != nil {
		t.Fatalf("a flooding client was disconnected: %v", err)
	}
}
