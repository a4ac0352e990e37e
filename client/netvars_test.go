package client

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"dlmp/internal/bits"
	"dlmp/internal/lane"
	"dlmp/internal/netvar"
	"dlmp/internal/wire"
)

var nt0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// netvarClient is a Client with no socket: its loop state only, driven by
// hand with injected time. What it sends collects in c.out.
func netvarClient(t testing.TB, me uint16, reg func(r *netvar.Registry)) *Client {
	t.Helper()
	c := &Client{
		cfg:   Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Netvars: reg},
		hello: wire.ServerHello{PlayerID: me, SessionToken: 0xABCD},
		gbn:   lane.NewGBNSender(lane.GBNConfig{}),
	}
	c.initNetvars()
	return c
}

// sealed is the server's registry of these tests.
func sealed(t testing.TB) *netvar.Registry {
	t.Helper()
	r := netvar.NewRegistry()
	r.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.Register("job").SetPlayer().String(16)
	r.Register("locked").SetVehicle().Bool()
	r.Register("typing").SetPlayer().Bool().ClientOwned().Debounce(0.5).SetDefault(false)
	r.Register("stamina").SetLocalPlayer().UByte().Predictable()
	r.Seal()
	return r
}

// sent decodes the packets c queued since the last call.
func sent(t *testing.T, c *Client) []wire.Packet {
	t.Helper()
	var out []wire.Packet
	for _, d := range c.out {
		for len(d) > 0 {
			p, err := wire.Unmarshal(d)
			if err != nil {
				t.Fatalf("the client sent a datagram it cannot parse: %v", err)
			}
			n := p.Len()
			out = append(out, p)
			d = d[n:]
		}
	}
	c.out = nil
	return out
}

func manifestPacket(r *netvar.Registry) *wire.NetvarManifest {
	p := new(wire.NetvarManifest)
	p.Payload = netvar.AppendSync(nil, r.Manifest(), nil)
	return p
}

func updatePacket(t *testing.T, r *netvar.Registry, target netvar.Target, key string, value any) *wire.NetvarUpdate {
	t.Helper()
	v, ok := r.Schema().Lookup(key)
	if !ok {
		t.Fatalf("no var %q", key)
	}
	p := new(wire.NetvarUpdate)
	p.Payload = netvar.AppendUpdate(nil, r.Schema(), target, v, value)
	return p
}

func TestNetvarAnnounceRetries(t *testing.T) {
	c := netvarClient(t, 2, nil)
	var attempts []uint16
	now := nt0
	for i := 0; i < 100; i++ { // 100 s of ticks, one per second
		c.netvarTick(now)
		for _, p := range sent(t, c) {
			s, ok := p.(*wire.NetvarSync)
			if !ok {
				t.Fatalf("sent %s before the manifest, want only NetvarSync", p.Name())
			}
			if s.CheckSend() != nil || s.Token != 0xABCD {
				t.Fatalf("announce %+v breaks its rules", s)
			}
			attempts = append(attempts, s.Attempt)
		}
		now = now.Add(time.Second)
	}
	if len(attempts) != netvar.AnnounceAttempts {
		t.Fatalf("announced %d times in 100 s, want %d", len(attempts), netvar.AnnounceAttempts)
	}
	for i, a := range attempts {
		if a != uint16(i+1) {
			t.Fatalf("attempt %d carries %d, want %d", i+1, a, i+1)
		}
	}
	// Every 3 s: 20 attempts span 57 s, so none after the first 60.
	c2 := netvarClient(t, 2, nil)
	n := 0
	for now := nt0; now.Before(nt0.Add(9 * time.Second)); now = now.Add(100 * time.Millisecond) {
		c2.netvarTick(now)
		n += len(sent(t, c2))
	}
	if n != 3 {
		t.Errorf("announces in the first 9 s (ticks every 100 ms) = %d, want 3 (at 0, 3, 6 s)", n)
	}
	// The manifest stops the announce.
	c2.deliverNetvar(manifestPacket(sealed(t)))
	c2.netvarTick(nt0.Add(20 * time.Second))
	if got := sent(t, c2); len(got) != 0 {
		t.Errorf("after the manifest the client sent %d packets, want none", len(got))
	}
}

func TestNetvarResyncRequestBatched(t *testing.T) {
	c := netvarClient(t, 2, nil)
	c.netvarTick(nt0)
	sent(t, c)
	show := func(id uint16) { c.deliverNetvar(&wire.VehicleShow{VehicleID: id, Active: 1, Model: 400}) }
	show(7) // before the manifest: held until it lands
	c.deliverNetvar(manifestPacket(sealed(t)))
	show(8)
	c.deliverNetvar(&wire.PlayerShow{PlayerID: 4, Active: 1})
	show(8) // twice in one tick: once in the request
	c.netvarTick(nt0.Add(50 * time.Millisecond))
	got := sent(t, c)
	if len(got) != 1 {
		t.Fatalf("one tick sent %d packets, want one batched request", len(got))
	}
	req, ok := got[0].(*wire.NetvarResyncRequest)
	if !ok {
		t.Fatalf("sent %s, want NetvarResyncRequest", got[0].Name())
	}
	refs := decodeRequest(t, req.Payload)
	want := []netvar.Ref{{Kind: netvar.KindVehicle, ID: 7}, {Kind: netvar.KindVehicle, ID: 8}, netvar.PlayerRef(4)}
	if len(refs) != len(want) {
		t.Fatalf("request names %v, want %v", refs, want)
	}
	for i := range want {
		if refs[i] != want[i] {
			t.Fatalf("request names %v, want %v", refs, want)
		}
	}
	// No answer within ResyncRetry: asked once more, then not again.
	c.netvarTick(nt0.Add(500 * time.Millisecond))
	if n := len(sent(t, c)); n != 0 {
		t.Fatalf("re-asked after 450 ms: %d packets", n)
	}
	r := sealed(t)
	c.deliverNetvar(updatePacket(t, r, netvar.Target{Ref: netvar.Ref{Kind: netvar.KindVehicle, ID: 8}}, "locked", true))
	c.netvarTick(nt0.Add(1100 * time.Millisecond))
	got = sent(t, c)
	if len(got) != 1 {
		t.Fatalf("the retry tick sent %d packets, want 1", len(got))
	}
	refs = decodeRequest(t, got[0].(*wire.NetvarResyncRequest).Payload)
	if len(refs) != 2 {
		t.Errorf("retry names %v, want the two unanswered entities", refs)
	}
	c.netvarTick(nt0.Add(3 * time.Second))
	c.netvarTick(nt0.Add(5 * time.Second))
	if n := len(sent(t, c)); n != 0 {
		t.Errorf("asked a third time: %d packets", n)
	}
}

func decodeRequest(t *testing.T, payload []byte) []netvar.Ref {
	t.Helper()
	r := bits.NewReader(payload)
	var refs []netvar.Ref
	for r.ReadBool() {
		refs = append(refs, netvar.Ref{Kind: netvar.Kind(r.ReadBits(netvar.KindBits)), ID: uint16(r.ReadBits(netvar.EntityIDBits))})
	}
	if r.Err() != nil {
		t.Fatalf("request does not decode: %v", r.Err())
	}
	return refs
}

func TestNetvarIdentityBinding(t *testing.T) {
	r := sealed(t)
	c := netvarClient(t, 2, nil)
	c.deliverNetvar(manifestPacket(r))
	job := func(slot, uid uint16, v string) {
		c.deliverNetvar(updatePacket(t, r, netvar.Target{Ref: netvar.PlayerRef(slot), UserID: uid}, "job", v))
	}
	get := func(slot uint16) any { return c.nv.m.Get(netvar.PlayerRef(slot), "job") }

	// Our own slot binds at once.
	job(2, 30, "me")
	if got := get(2); got != "me" {
		t.Fatalf("own value = %v, want me", got)
	}
	// A value before the show is buffered, then bound by the first
	// header after the show.
	job(5, 10, "ten")
	if got := get(5); got != nil {
		t.Fatalf("value for an unshown player applied: %v", got)
	}
	c.deliverNetvar(&wire.PlayerShow{PlayerID: 5, Active: 1})
	job(5, 10, "ten-again")
	if got := get(5); got != "ten-again" {
		t.Fatalf("after show and a header, slot 5 = %v, want ten-again", got)
	}
	// The slot is recycled: the old occupant's late value is dropped, the
	// new one's is buffered until the show and bound after it.
	c.deliverNetvar(&wire.PlayerShow{PlayerID: 5, Active: 0})
	dropped := c.nv.m.Dropped()
	job(5, 10, "stale")
	if c.nv.m.Dropped() != dropped+1 {
		t.Errorf("a late value of the previous occupant was not dropped")
	}
	job(5, 12, "twelve")
	c.deliverNetvar(&wire.PlayerShow{PlayerID: 5, Active: 1})
	job(5, 10, "stale again") // must not bind the slot to 10
	if got := get(5); got != nil {
		t.Fatalf("slot 5 = %v after a stale header, want nothing yet", got)
	}
	job(5, 12, "twelve-b")
	if got := get(5); got != "twelve-b" {
		t.Fatalf("slot 5 = %v, want twelve-b", got)
	}
	if uid := c.nv.bound[5]; uid != 12 {
		t.Errorf("slot 5 bound to UserID %d, want 12", uid)
	}
}

func TestNetvarClientSetBufferedUntilManifest(t *testing.T) {
	local := func(r *netvar.Registry) {
		r.Register("typing").SetPlayer().Bool().ClientOwned().Debounce(0.5).SetDefault(false)
		r.Register("stamina").SetLocalPlayer().UByte().Predictable()
	}
	c := netvarClient(t, 2, local)
	var changes []NetvarChange
	c.cfg.OnNetvar = func(ch NetvarChange) { changes = append(changes, ch) }
	for _, v := range []bool{true, false, true} {
		if err := c.SetNetVar("typing", v); err != nil {
			t.Fatal(err)
		}
	}
	if got := c.nv.m.Get(netvar.PlayerRef(2), "typing"); got != true {
		t.Fatalf("local apply before the manifest: typing = %v, want true", got)
	}
	if err := c.SetNetVar("stamina", 40); err != nil {
		t.Fatal(err)
	}
	if err := c.SetNetVar("job", "x"); err == nil {
		t.Error("a server-owned var was set on the client")
	}
	c.gbn.Poll(nt0, func(d []byte) { c.out = append(c.out, d) })
	if got := sent(t, c); len(got) != 0 {
		t.Fatalf("%d packets left before the manifest, want none", len(got))
	}
	r := sealed(t)
	c.deliverNetvar(manifestPacket(r))
	var sets []*wire.NetvarClientSet
	c.gbn.Poll(nt0, func(d []byte) { c.out = append(c.out, d) })
	for _, p := range sent(t, c) {
		if s, ok := p.(*wire.NetvarClientSet); ok {
			sets = append(sets, s)
		}
	}
	if len(sets) != 1 {
		t.Fatalf("%d ClientSets after the manifest, want 1 (latest wins)", len(sets))
	}
	v, value, err := netvar.DecodeClientSet(sets[0].Payload, r.Schema())
	if err != nil || v.Name() != "typing" || value != true {
		t.Fatalf("ClientSet = %v %v %v, want typing true", v, value, err)
	}
	changes = append(changes, c.takeNetvarChanges()...)
	var predicted int
	for _, ch := range changes {
		if !ch.Predicted {
			t.Errorf("local change %+v not marked predicted", ch)
		}
		predicted++
	}
	if predicted != 4 {
		t.Errorf("%d predicted changes (typing ×3, stamina), want 4", predicted)
	}
	// The server's confirmation overwrites the prediction, unpredicted.
	// (Its OldValue is not checked: netvar.Mirror forgets the values
	// predicted before the first manifest when it binds; reported.)
	if err := c.SetNetVar("stamina", 50); err != nil {
		t.Fatal(err)
	}
	c.takeNetvarChanges()
	c.deliverNetvar(updatePacket(t, r, netvar.Target{Ref: netvar.PlayerRef(2), UserID: 1}, "stamina", 70.0))
	ch := c.takeNetvarChanges()
	if len(ch) != 1 || ch[0].Predicted || ch[0].NewValue != 70.0 || ch[0].OldValue != 50.0 {
		t.Errorf("confirmation changes = %+v, want one unpredicted 50 → 70", ch)
	}
}

// FuzzNetvarDeliver feeds the netvar messages arbitrary payloads after a
// real manifest: nothing panics, and the client keeps working.
func FuzzNetvarDeliver(f *testing.F) {
	r := netvar.NewRegistry()
	r.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	r.Register("job").SetPlayer().String(16)
	r.Register("locked").SetVehicle().Bool()
	r.Register("pass").Enum([]any{"grey", "green", "blue"})
	r.Seal()
	upd := netvar.AppendUpdate(nil, r.Schema(), netvar.Target{Ref: netvar.PlayerRef(5), UserID: 9}, mustVar(r, "job"), "cop")
	f.Add(byte(0), upd)
	f.Add(byte(1), upd)
	f.Add(byte(2), netvar.AppendSync(nil, r.Manifest(), nil))
	f.Fuzz(func(t *testing.T, kind byte, payload []byte) {
		c := netvarClient(t, 2, nil)
		c.deliverNetvar(manifestPacket(r))
		c.deliverNetvar(&wire.PlayerShow{PlayerID: 5, Active: 1})
		var p wire.Packet
		switch kind % 3 {
		case 0:
			x := new(wire.NetvarUpdate)
			x.Payload = payload
			p = x
		case 1:
			x := new(wire.NetvarResync)
			x.Payload = payload
			p = x
		case 2:
			x := new(wire.NetvarManifest)
			x.Payload = payload
			p = x
		}
		c.deliverNetvar(p)
		c.deliverNetvar(&wire.PlayerShow{PlayerID: 5, Active: 0})
		c.netvarTick(nt0)
		_ = c.nv.m.Get(netvar.PlayerRef(5), "job")
	})
}

func mustVar(r *netvar.Registry, name string) *netvar.Var {
	v, ok := r.Schema().Lookup(name)
	if !ok {
		panic("no var " + name)
	}
	return v
}

// TestNetvarRequestAskedAgain: a request answered and made again later is
// retried ResyncRetry after the second asking, not after the first: the
// first one's place in the tick's queue is no longer its.
func TestNetvarRequestAskedAgain(t *testing.T) {
	c := netvarClient(t, 2, nil)
	c.deliverNetvar(manifestPacket(sealed(t)))
	r := sealed(t)
	ref := netvar.Ref{Kind: netvar.KindVehicle, ID: 8}
	c.deliverNetvar(&wire.VehicleShow{VehicleID: 8, Active: 1, Model: 400})
	c.netvarTick(nt0)
	c.deliverNetvar(updatePacket(t, r, netvar.Target{Ref: ref}, "locked", true)) // answered
	c.deliverNetvar(&wire.VehicleShow{VehicleID: 8, Active: 1, Model: 400})      // shown again: asked again
	c.netvarTick(nt0.Add(600 * time.Millisecond))
	sent(t, c)
	c.netvarTick(nt0.Add(1100 * time.Millisecond)) // the first asking's retry time
	if got := sent(t, c); len(got) != 0 {
		t.Fatalf("retried 500 ms after the second asking: %d packets", len(got))
	}
	c.netvarTick(nt0.Add(1600 * time.Millisecond))
	got := sent(t, c)
	if len(got) != 1 {
		t.Fatalf("the second asking's retry tick sent %d packets, want 1", len(got))
	}
	if refs := decodeRequest(t, got[0].(*wire.NetvarResyncRequest).Payload); len(refs) != 1 || refs[0] != ref {
		t.Errorf("retry names %v, want [%v]", refs, ref)
	}
}

// TestNetvarRequestQueueBounded: requests made and dropped (the entity
// hidden) while an older one waits at the front do not pile up in the
// tick's queue.
func TestNetvarRequestQueueBounded(t *testing.T) {
	c := netvarClient(t, 2, nil)
	c.deliverNetvar(manifestPacket(sealed(t)))
	c.deliverNetvar(&wire.VehicleShow{VehicleID: 1, Active: 1, Model: 400}) // never answered: at the front
	c.netvarTick(nt0)
	for i := range 900 {
		id := uint16(100 + i%500)
		c.deliverNetvar(&wire.PlayerShow{PlayerID: id, Active: 1})
		c.netvarTick(nt0.Add(time.Duration(i+1) * time.Millisecond))
		c.deliverNetvar(&wire.PlayerShow{PlayerID: id}) // gone: its request is dropped
	}
	if got := len(c.nv.queue); got > 16 {
		t.Errorf("got %d requests queued with 1 pending, want at most 16", got)
	}
}
