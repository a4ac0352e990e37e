package client

import (
	"math"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// TestMoveInRangeIsCheckRecv: the PlayerMoves' shortcut accepts exactly
// what PlayerMove.CheckRecv accepts, at every field's boundaries (the last
// value accepted, the first refused, NaN and the infinities), for each
// state. It fails when one of moveInRange's guards is dropped or moved.
func TestMoveInRangeIsCheckRecv(t *testing.T) {
	up := func(f float32) float32 { return math.Nextafter32(f, float32(math.Inf(1))) }
	down := func(f float32) float32 { return math.Nextafter32(f, float32(math.Inf(-1))) }
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	bases := map[string]wire.PlayerMove{
		"on foot":   {Seq: 1, PlayerID: 5, State: wire.StateOnFoot, Health: 100},
		"driver":    {Seq: 1, PlayerID: 5, State: wire.StateDriver, VehicleID: 7, Health: 100},
		"passenger": {Seq: 1, PlayerID: 5, State: wire.StatePassenger, VehicleID: 7, Seat: 1, Health: 100},
		"dead":      {Seq: 1, PlayerID: 5, State: wire.StateDead},
	}
	type edit struct {
		name string
		f    func(m *wire.PlayerMove)
	}
	var edits []edit
	for _, f := range []struct {
		name   string
		field  func(m *wire.PlayerMove) *float32
		lo, hi float32
		hiOpen bool
	}{
		{"x", func(m *wire.PlayerMove) *float32 { return &m.X }, -wire.WorldXY, wire.WorldXY, false},
		{"y", func(m *wire.PlayerMove) *float32 { return &m.Y }, -wire.WorldXY, wire.WorldXY, false},
		{"z", func(m *wire.PlayerMove) *float32 { return &m.Z }, wire.WorldMinZ, wire.WorldMaxZ, false},
		{"heading", func(m *wire.PlayerMove) *float32 { return &m.Heading }, 0, 360, true},
		{"vx", func(m *wire.PlayerMove) *float32 { return &m.VX }, -wire.MaxSpeed, wire.MaxSpeed, false},
		{"vy", func(m *wire.PlayerMove) *float32 { return &m.VY }, -wire.MaxSpeed, wire.MaxSpeed, false},
		{"vz", func(m *wire.PlayerMove) *float32 { return &m.VZ }, -wire.MaxSpeed, wire.MaxSpeed, false},
	} {
		for _, v := range []float32{f.lo, down(f.lo), f.hi, up(f.hi), down(f.hi), nan, inf, -inf} {
			edits = append(edits, edit{f.name, func(m *wire.PlayerMove) { *f.field(m) = v }})
		}
	}
	for _, v := range []uint16{0, 999, 1000, 65535} {
		edits = append(edits, edit{"player_id", func(m *wire.PlayerMove) { m.PlayerID = v }})
	}
	for v := range 256 {
		edits = append(edits,
			edit{"state", func(m *wire.PlayerMove) { m.State = uint8(v) }},
			edit{"health", func(m *wire.PlayerMove) { m.Health = uint8(v) }},
			edit{"armour", func(m *wire.PlayerMove) { m.Armour = uint8(v) }},
			edit{"weapon", func(m *wire.PlayerMove) { m.Weapon = uint8(v) }},
			edit{"seat", func(m *wire.PlayerMove) { m.Seat = uint8(v) }})
	}
	for _, v := range []uint16{0, 1, 1999, 2000, 65535} {
		edits = append(edits, edit{"vehicle_id", func(m *wire.PlayerMove) { m.VehicleID = v }})
	}
	accepted, refused := 0, 0
	for name, base := range bases {
		if !moveInRange(&base) {
			t.Fatalf("%s: the base move %+v refused", name, base)
		}
		for _, e := range edits {
			m := base
			e.f(&m)
			want := m.CheckRecv() == nil
			if got := moveInRange(&m); got != want {
				t.Errorf("%s, %s: moveInRange(%+v) = %v, want %v (CheckRecv: %v)", name, e.name, m, got, want, m.CheckRecv())
			}
			if want {
				accepted++
			} else {
				refused++
			}
		}
	}
	if accepted == 0 || refused == 0 {
		t.Errorf("got %d accepted and %d refused edits, want both", accepted, refused)
	}
}

// FuzzMoveInRange: for any 42 bytes after the id, the shortcut agrees with
// CheckRecv.
func FuzzMoveInRange(f *testing.F) {
	f.Add((&wire.PlayerMove{Seq: 1, PlayerID: 5, State: wire.StateOnFoot, Health: 100}).Append(nil)[1:])
	f.Add((&wire.PlayerMove{Seq: 1, PlayerID: 5, State: wire.StatePassenger, VehicleID: 3, Seat: 8}).Append(nil)[1:])
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) < wire.PlayerMoveLen-1 {
			return
		}
		var m wire.PlayerMove
		if _, err := m.Parse(append([]byte{wire.IDPlayerMove}, body...)); err != nil {
			t.Fatal(err)
		}
		if got, want := moveInRange(&m), m.CheckRecv() == nil; got != want {
			t.Fatalf("moveInRange(%+v) = %v, want %v (CheckRecv: %v)", m, got, want, m.CheckRecv())
		}
	})
}

// TestMovesDatagram: in one datagram, the moves the shortcut takes and the
// one it leaves to the generic path are each handled as the generic path
// alone would: an out-of-range move counted invalid, applying nothing and
// recording no seq; a stale one counted stale; the valid ones applied and
// handed to OnPacket; a truncated move at the end counted unknown.
func TestMovesDatagram(t *testing.T) {
	now := time.Now()
	c := loopClient(t, now)
	var got []wire.Packet
	c.cfg.OnPacket = func(p wire.Packet) { got = append(got, p) }
	for _, id := range []uint16{5, 6} {
		c.world.Apply(&wire.PlayerShow{PlayerID: id, Active: 1}, now)
	}
	pm := func(id uint16, seq uint32, x, heading float32) *wire.PlayerMove {
		return &wire.PlayerMove{PlayerID: id, Seq: seq, State: wire.StateOnFoot, X: x, Heading: heading, Health: 100}
	}
	var d []byte
	d = pm(5, 10, 1, 0).Append(d)
	d = pm(6, 20, 2, 360).Append(d) // heading out of range
	d = pm(5, 9, 3, 0).Append(d)    // stale
	d = pm(6, 19, 4, 359).Append(d) // newer than any seq of 6 taken: 20 was refused
	d = append(d, pm(5, 11, 5, 0).Append(nil)[:wire.PlayerMoveLen-1]...)
	c.receiveLocked(d, now)
	if c.stats.Invalid != 1 || c.stats.Stale != 1 || c.stats.Unknown != 1 {
		t.Errorf("got %d invalid, %d stale, %d unknown; want 1 each", c.stats.Invalid, c.stats.Stale, c.stats.Unknown)
	}
	if p, _ := c.world.Player(5); p.Pos.X != 1 {
		t.Errorf("got player 5 at x %v, want 1", p.Pos.X)
	}
	if p, _ := c.world.Player(6); p.Pos.X != 4 || p.Heading != 359 {
		t.Errorf("got player 6 at x %v heading %v, want 4 and 359", p.Pos.X, p.Heading)
	}
	if len(c.pending) != 2 {
		t.Fatalf("got %d packets for OnPacket, want 2", len(c.pending))
	}
	for i, want := range []*wire.PlayerMove{pm(5, 10, 1, 0), pm(6, 19, 4, 359)} {
		if m, ok := c.pending[i].(*wire.PlayerMove); !ok || *m != *want {
			t.Errorf("OnPacket %d: got %+v, want %+v", i, c.pending[i], want)
		}
	}
	if c.pending[0] == &c.move || c.pending[1] == &c.move {
		t.Error("a packet for OnPacket is the client's reused PlayerMove")
	}
}

// FuzzDecodeMove: decodeMove reads what PlayerMove.Parse reads, field by
// field (the seeds give every field a distinct value: a wrong offset
// fails them).
func FuzzDecodeMove(f *testing.F) {
	f.Add((&wire.PlayerMove{Seq: 0x01020304, PlayerID: 0x0506, State: 7, X: 1.5, Y: -2.25, Z: 3.125, Heading: 4.5,
		VX: 5.5, VY: -6.5, VZ: 7.75, Health: 8, Armour: 9, Weapon: 10, VehicleID: 0x0B0C, Seat: 13}).Append(nil)[1:])
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) < wire.PlayerMoveLen-1 {
			return
		}
		b := append([]byte{wire.IDPlayerMove}, body...)
		var want, got wire.PlayerMove
		if _, err := want.Parse(b); err != nil {
			t.Fatal(err)
		}
		decodeMove(b, &got)
		if !sameBits(got, want) {
			t.Fatalf("decodeMove(%x) = %+v, want %+v", b, got, want)
		}
	})
}

// sameBits compares two moves by their encodings (NaN fields included).
func sameBits(a, b wire.PlayerMove) bool {
	return string(a.Append(nil)) == string(b.Append(nil))
}
