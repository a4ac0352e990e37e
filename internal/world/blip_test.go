package world

import (
	"dlmp/internal/config"
	"errors"
	"math"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestCreateBlipUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	p, _ := f.join()
	tests := []struct {
		name string
		bp   BlipParams
		arg  string
		wire bool
	}{
		{"sprite 64", BlipParams{Sprite: 64}, "sprite", true},
		{"color", BlipParams{Color: 0x1000000}, "color", true},
		{"size small", BlipParams{Size: 0.2}, "size", true},
		{"size NaN", BlipParams{Size: float32(math.NaN())}, "size", true},
		{"flags", BlipParams{Flags: 4}, "flags", true},
		{"y outside", BlipParams{Pos: grid.Vec{Y: -6000.5}}, "y", true},
		{"sprite on attached", BlipParams{Sprite: 5, AttachKind: wire.AttachPlayer, AttachID: uint32(p.ID())}, "sprite", true},
		{"no such vehicle", BlipParams{AttachKind: wire.AttachVehicle, AttachID: 7}, "attach_id", false},
		{"no such player", BlipParams{AttachKind: wire.AttachPlayer, AttachID: 9}, "attach_id", false},
		{"negative distance", BlipParams{DrawDistance: -1}, "draw_distance", false},
		{"infinite distance", BlipParams{DrawDistance: float32(math.Inf(1))}, "draw_distance", false},
	}
	for _, tt := range tests {
		_, err := f.w.CreateBlip(tt.bp)
		wantArgErr(t, err, "create_blip", tt.arg)
		var we *wire.Error
		if got := errors.As(err, &we); got != tt.wire {
			t.Errorf("%s: got %v, wire rule %v, want %v", tt.name, err, got, tt.wire)
		}
	}
	id, err := f.w.CreateBlip(BlipParams{Sprite: 63, Color: 0xFFFFFF, Size: 4, Flags: 3, Pos: grid.Vec{X: 6000, Z: -200}})
	if err != nil {
		t.Fatalf("blip at the edges: %v", err)
	}
	if got := f.w.Blip(id).Params().Size; got != 4 {
		t.Fatalf("got size %v, want 4", got)
	}
	if id, _ := f.w.CreateBlip(BlipParams{}); f.w.Blip(id).Params().Size != 1 {
		t.Fatalf("size 0: got %v, want the default 1", f.w.Blip(id).Params().Size)
	}
}

func TestBlipScopeAndNearest100(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join() // not spawned: unattached blips need no spawn
	b, cb := f.join()
	f.spawnIn(b, cb, grid.Vec{}, grid.Scope{World: 2})
	var want []uint32
	for i := range 120 {
		id := f.blip(BlipParams{Sprite: 1, Pos: grid.Vec{X: float32(1000 + i)}})
		if i < 100 {
			want = append(want, id)
		}
	}
	other := f.blip(BlipParams{Scope: grid.Scope{World: 2}, Pos: grid.Vec{X: 5000}})
	ma, mb := newMirror(), newMirror()
	f.advance(tick)
	ma.apply(t, ca)
	mb.apply(t, cb)
	wantIDs(t, "100 nearest in the default scope", ids(ma.blips), want...)
	wantIDs(t, "world 2", ids(mb.blips), other)
	if got := ma.blips[want[0]]; got.Sprite != 1 || got.X != 1000 || got.Size != 1 {
		t.Fatalf("got %+v, want sprite 1 at x 1000, size 1", got)
	}
	// A change resends; a delete hides.
	if err := f.w.SetBlip(want[0], BlipParams{Sprite: 2, Pos: grid.Vec{X: 1000}}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick) // blip changes reach the views on the next tick
	ma.apply(t, ca)
	if got := ma.blips[want[0]]; got.Sprite != 2 {
		t.Fatalf("after SetBlip: got sprite %d, want 2", got.Sprite)
	}
	if err := f.w.DeleteBlip(want[0]); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	wantIDs(t, "after a delete, the 101st comes in", ids(ma.blips), append(want[1:], want[len(want)-1]+1)...)
	_ = a
}

func TestBlipDrawDistanceHysteresis(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 195})
	m := newMirror()
	id := f.blip(BlipParams{Pos: grid.Vec{X: 100}, DrawDistance: 100})
	f.advance(tick)
	m.apply(t, c)
	wantIDs(t, "95 m away, within 100", ids(m.blips), id)
	steps := []struct {
		x     float32
		shown bool
	}{
		{205, true},    // 105 m: past the distance, within the 10 m
		{210, true},    // exactly 10 m past
		{210.5, false}, // hidden past it
		{205, false},   // within the band but not shown: stays hidden
		{200, true},    // at the distance
	}
	for _, s := range steps {
		f.walk(p, c, grid.Vec{X: s.x})
		f.slowPass()
		m.apply(t, c)
		if _, got := m.blips[id]; got != s.shown {
			t.Fatalf("at %v m: got shown %v, want %v", s.x-100, got, s.shown)
		}
	}
}

func TestBlipHysteresisDoesNotCostNearestSlots(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	// 100 blips in their hysteresis band (not shown), nearer than 100
	// plain ones: the plain ones are the 100 nearest that show.
	for i := range 100 {
		f.blip(BlipParams{Pos: grid.Vec{X: 15 + float32(i)*0.01}, DrawDistance: 10})
	}
	var want []uint32
	for i := range 100 {
		want = append(want, f.blip(BlipParams{Pos: grid.Vec{X: 100 + float32(i)}}))
	}
	m := newMirror()
	f.slowPass()
	m.apply(t, c)
	wantIDs(t, "the plain blips", ids(m.blips), want...)
}

func TestBlipAttachedToPlayer(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(b, cb, grid.Vec{X: 500})
	ma, mb := newMirror(), newMirror()
	id := f.blip(BlipParams{Color: 0xFF0000, AttachKind: wire.AttachPlayer, AttachID: uint32(a.ID())})
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "entity not spawned yet", ids(mb.blips))

	f.spawn(a, ca, grid.Vec{X: 10, Y: 20, Z: 3})
	f.slowPass()
	ma.apply(t, ca)
	mb.apply(t, cb)
	wantIDs(t, "the attached player", ids(ma.blips))
	wantIDs(t, "both spawned", ids(mb.blips), id)
	if got := mb.blips[id]; got.X != 10 || got.Y != 20 || got.Z != 3 || got.AttachKind != wire.AttachPlayer || got.Sprite != 0 {
		t.Fatalf("got %+v, want attached at the entity's (10, 20, 3)", got)
	}

	// Moves of 5 m or less are not sent; past 5 m, at most once a second.
	f.walk(a, ca, grid.Vec{X: 14, Y: 20, Z: 3})
	f.slowPass()
	if ss := mb.apply(t, cb); len(ss) != 0 {
		t.Fatalf("entity moved 4 m: got %d packets, want 0", len(ss))
	}
	f.slowPass() // the next update is due at once
	shows := 0
	for i := range 20 {
		f.walk(a, ca, grid.Vec{X: 14 + float32(i+1)*6, Y: 20, Z: 3})
		f.advance(tick)
		shows += len(mb.apply(t, cb))
	}
	if shows < 1 || shows > 2 {
		t.Fatalf("entity moved 120 m over about a second: got %d updates, want 1 or 2", shows)
	}
	// The recipient's slow pass follows the entity, once a second at its
	// own phase: the last point is shown within one.
	f.slowPass()
	mb.apply(t, cb)
	if got := mb.blips[id]; got.X != 134 {
		t.Fatalf("after a quiet second: got x %v, want the entity's 134", got.X)
	}

	// A recipient that never spawned does not see it either.
	n, cn := f.join()
	f.slowPass()
	mn := newMirror()
	mn.apply(t, cn)
	wantIDs(t, "recipient not spawned", ids(mn.blips))
	_ = n

	// The entity's scope counts.
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{X: 134}, Interior: 5}); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "entity in an interior", ids(mb.blips))
	if err := f.w.Teleport(b, Landing{Pos: grid.Vec{X: 500}, Interior: 5}); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "recipient in the same interior", ids(mb.blips), id)

	// The entity leaving deletes the blip.
	f.w.Leave(a, wire.ReasonQuit)
	f.advance(tick)
	mb.apply(t, cb)
	wantIDs(t, "entity left", ids(mb.blips))
	if f.w.Blip(id) != nil {
		t.Fatal("entity left: blip still exists, want deleted")
	}
}

func TestBlipKeepsLastValidPosition(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{X: 5990})
	f.spawn(b, cb, grid.Vec{})
	id := f.blip(BlipParams{AttachKind: wire.AttachPlayer, AttachID: uint32(a.ID())})
	mb := newMirror()
	f.slowPass()
	mb.apply(t, cb)
	// The server's data for the entity goes outside world bounds (no sync
	// can, so the position is set directly): the blip stays at the last
	// valid point and nothing is sent.
	a.pos = grid.Vec{X: 6100}
	f.slowPass()
	f.slowPass()
	if ss := mb.apply(t, cb); len(ss) != 0 {
		t.Fatalf("entity outside bounds: got %d packets, want 0", len(ss))
	}
	if got := f.w.Blip(id).Position(); got.X != 5990 {
		t.Fatalf("got blip at %v, want the last valid x 5990", got)
	}
	if got := mb.blips[id]; got.X != 5990 {
		t.Fatalf("client has x %v, want 5990", got.X)
	}
}

func TestBlipChangesReachViewsOnTheNextTick(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	f.slowPass()
	m := newMirror()
	m.apply(t, c)
	var want []uint32
	for i := range 30 {
		want = append(want, f.blip(BlipParams{Pos: grid.Vec{X: float32(i)}}))
	}
	if ss := m.apply(t, c); len(ss) != 0 {
		t.Fatalf("before the tick: got %d packets, want 0", len(ss))
	}
	if !p.prims.blipsDirty {
		t.Fatal("got the player not marked, want marked for the next tick")
	}
	f.advance(tick)
	m.apply(t, c)
	wantIDs(t, "after one tick", ids(m.blips), want...)
}

// TestAttachedBlipReachesEveryViewerWithinASecond: an attached blip is
// updated at most once a second when its entity moved more than 5 m
// (world.md Blip), and a viewer gets the entity's new position within a
// second of the move (a tick more for the tick it falls in), whatever tick
// the move falls in and whatever the viewers' phases of the second (four
// slots: phases 0, 250, 500, 750 ms); while the entity keeps moving, each
// viewer gets one update per second.
func TestAttachedBlipReachesEveryViewerWithinASecond(t *testing.T) {
	type viewer struct {
		p *Player
		c *testConn
		m *mirror
	}
	for offset := range int(SlowPass / tick) {
		f := newFixture(t, func(c *config.Config) { c.Server.MaxPlayers = 4 })
		a, ca := f.join()
		f.spawn(a, ca, grid.Vec{X: 10})
		var vs []viewer
		for i := range 3 {
			p, c := f.join()
			f.spawn(p, c, grid.Vec{X: float32(100 * (i + 1))})
			vs = append(vs, viewer{p, c, newMirror()})
		}
		id := f.blip(BlipParams{AttachKind: wire.AttachPlayer, AttachID: uint32(a.ID())})
		updates := func() []int {
			n := make([]int, len(vs))
			for i, v := range vs {
				n[i] = len(v.m.apply(t, v.c))
			}
			return n
		}
		f.slowPass()
		f.slowPass()
		updates()
		for range offset {
			f.advance(tick)
			updates()
		}
		f.walk(a, ca, grid.Vec{X: 60})
		for range SlowPass/tick + 1 {
			f.advance(tick)
			updates()
		}
		for i, v := range vs {
			if got := v.m.blips[id]; got == nil || got.X != 60 {
				t.Fatalf("move after %d ticks: viewer %d (id %d) has %+v a second later, want the blip at x 60", offset, i, v.p.ID(), got)
			}
		}
		if offset > 0 {
			continue
		}
		// The entity runs 6 m a tick for three seconds: one update a
		// second for each viewer (three, or four with the seconds' edges).
		total := make([]int, len(vs))
		for k := range 3 * int(SlowPass/tick) {
			f.walk(a, ca, grid.Vec{X: 60 + float32(k+1)*6})
			f.advance(tick)
			for i, n := range updates() {
				total[i] += n
			}
		}
		for i, n := range total {
			if n < 3 || n > 4 {
				t.Errorf("viewer %d: %d updates in three seconds of moves, want 3 or 4", i, n)
			}
		}
	}
}
