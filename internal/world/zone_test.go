package world

import (
	"errors"
	"fmt"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestCreateGangZoneUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	sq := func(mod func(*ZoneParams)) ZoneParams {
		zp := ZoneParams{Min: [2]float32{0, 0}, Max: [2]float32{10, 10}}
		mod(&zp)
		return zp
	}
	tests := []struct {
		name string
		zp   ZoneParams
		arg  string
	}{
		{"color", sq(func(z *ZoneParams) { z.Color = 0x1000000 }), "color"},
		{"flash color", sq(func(z *ZoneParams) { z.FlashColor = 0xFF000000 }), "flash_color"},
		{"degenerate x", sq(func(z *ZoneParams) { z.Max[0] = 0 }), "max_x"},
		{"inverted y", sq(func(z *ZoneParams) { z.Max[1] = -1 }), "max_y"},
		{"outside", sq(func(z *ZoneParams) { z.Min[0] = -6000.5 }), "min_x"},
	}
	for _, tt := range tests {
		_, err := f.w.CreateGangZone(tt.zp)
		wantArgErr(t, err, "create_gang_zone", tt.arg)
		var we *wire.Error
		if !errors.As(err, &we) {
			t.Errorf("%s: got %v, want GangZone's send rule", tt.name, err)
		}
	}
	if _, err := f.w.CreateGangZone(ZoneParams{Min: [2]float32{-6000, -6000}, Max: [2]float32{6000, 6000}, Color: 0xFFFFFF, Alpha: 255}); err != nil {
		t.Fatalf("the whole world: %v", err)
	}
	for _, err := range []error{f.w.ShowGangZone(99, nil), f.w.HideGangZone(99, nil), f.w.SetGangZone(99, ZoneParams{}), f.w.DeleteGangZone(99)} {
		if !errors.Is(err, ErrState) {
			t.Errorf("no such zone: got %v, want ErrState", err)
		}
	}
}

func TestGangZoneVisibility(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	o, co := f.join()
	f.spawn(a, ca, grid.Vec{})
	f.spawn(b, cb, grid.Vec{X: 3000})
	f.spawnIn(o, co, grid.Vec{}, grid.Scope{World: 9})
	ma, mb, mo := newMirror(), newMirror(), newMirror()
	apply := func() {
		ma.apply(t, ca)
		mb.apply(t, cb)
		mo.apply(t, co)
	}
	id := f.zone(ZoneParams{Min: [2]float32{-100, -100}, Max: [2]float32{100, 50}, Color: 0xFF0000, Alpha: 128})
	f.slowPass()
	apply()
	wantIDs(t, "created hidden", ids(ma.zones))

	// Shown to everyone in the scope, with no distance limit.
	if err := f.w.ShowGangZone(id, nil); err != nil {
		t.Fatal(err)
	}
	f.advance(tick) // zone changes reach the views on the next tick
	apply()
	wantIDs(t, "a, shown to all", ids(ma.zones), id)
	wantIDs(t, "b, 3 km away", ids(mb.zones), id)
	wantIDs(t, "o, another world", ids(mo.zones))
	if got := ma.zones[id]; got.MinX != -100 || got.MaxY != 50 || got.Color != 0xFF0000 || got.Alpha != 128 || got.Rev != 1 || got.Flashing != 0 {
		t.Fatalf("got %+v, want the zone's fields at rev 1", got)
	}

	// Hidden for one player only.
	if err := f.w.HideGangZone(id, b); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	apply()
	wantIDs(t, "a, after b's hide", ids(ma.zones), id)
	wantIDs(t, "b, hidden for b", ids(mb.zones))

	// A change: rev grows, flashing, resent to who sees it.
	if err := f.w.SetGangZone(id, ZoneParams{Min: [2]float32{-100, -100}, Max: [2]float32{100, 50}, Color: 0xFF0000,
		Alpha: 128, Flashing: true, FlashColor: 0x0000FF}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ss := apply2(t, ma, ca, mb, cb)
	if got := ma.zones[id]; got.Rev != 2 || got.Flashing != 1 || got.FlashColor != 0x0000FF {
		t.Fatalf("after the change: got %+v, want rev 2, flashing to 0000FF", got)
	}
	if len(ss) != 1 {
		t.Fatalf("after the change: got %d packets, want 1 (b does not see it)", len(ss))
	}

	// A new connection receives it; b's hide is discarded when b leaves.
	f.w.Leave(b, wire.ReasonQuit)
	b2, cb2 := f.join()
	f.spawn(b2, cb2, grid.Vec{X: 3000})
	f.advance(tick)
	mb2 := newMirror()
	mb2.apply(t, cb2)
	wantIDs(t, "new connection", ids(mb2.zones), id)

	// Hidden from everyone: a and b2 get hides; a per-player show then
	// shows it to one.
	if err := f.w.HideGangZone(id, nil); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	mb2.apply(t, cb2)
	wantIDs(t, "a, hidden from all", ids(ma.zones))
	wantIDs(t, "b2, hidden from all", ids(mb2.zones))
	if err := f.w.ShowGangZone(id, a); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	mb2.apply(t, cb2)
	wantIDs(t, "a, shown for a", ids(ma.zones), id)
	wantIDs(t, "b2, not shown for b2", ids(mb2.zones))
	// Showing again changes nothing on the wire.
	if err := f.w.ShowGangZone(id, a); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if ss := ma.apply(t, ca); len(ss) != 0 {
		t.Fatalf("a repeated show: got %d packets, want 0", len(ss))
	}
	// Scope: a teleported into another world loses it, and gets it back.
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{}, World: 9}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	wantIDs(t, "a in world 9", ids(ma.zones))
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{}}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	wantIDs(t, "a back", ids(ma.zones), id)
	if err := f.w.DeleteGangZone(id); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	wantIDs(t, "deleted", ids(ma.zones))
}

// apply2 applies two mirrors and returns every packet.
func apply2(t *testing.T, m1 *mirror, c1 *testConn, m2 *mirror, c2 *testConn) []sent {
	t.Helper()
	return append(m1.apply(t, c1), m2.apply(t, c2)...)
}

func TestGangZoneNearest1024ByCenter(t *testing.T) {
	// Both paths: a scan of every zone (up to ZoneScanMax) and the grid.
	for _, n := range []int{1100, ZoneScanMax + 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			f := newFixture(t, nil)
			var want []uint32
			for i := range n {
				x := float32(i)*4 - 4000
				id := f.zone(ZoneParams{Min: [2]float32{x, -1}, Max: [2]float32{x + 2, 1}})
				if err := f.w.ShowGangZone(id, nil); err != nil {
					t.Fatal(err)
				}
				if i < 1024 {
					want = append(want, id)
				}
			}
			// A huge zone whose corner is near but center is far is not among them.
			big := f.zone(ZoneParams{Min: [2]float32{-4010, -6000}, Max: [2]float32{-3990, -4000}})
			if err := f.w.ShowGangZone(big, nil); err != nil {
				t.Fatal(err)
			}
			p, c := f.join()
			f.spawn(p, c, grid.Vec{X: -4000, Z: 500}) // the height does not count
			// One hidden for p lets the 1025th in.
			if err := f.w.HideGangZone(want[0], p); err != nil {
				t.Fatal(err)
			}
			want = append(want[1:], want[len(want)-1]+1)
			m := newMirror()
			f.slowPass()
			m.apply(t, c)
			wantIDs(t, "1024 nearest by center", ids(m.zones), want...)
		})
	}
}
