package world

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestCreateCheckpointUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	p, _ := f.join()
	tests := []struct {
		name string
		cp   CheckpointParams
		arg  string
	}{
		{"kind 5", CheckpointParams{Kind: 5, Radius: 1}, "kind"},
		{"radius 0", CheckpointParams{}, "radius"},
		{"radius past 100", CheckpointParams{Radius: 100.5}, "radius"},
		{"color", CheckpointParams{Radius: 1, Color: 0x1000000}, "color"},
		{"outside", CheckpointParams{Radius: 1, Pos: grid.Vec{Z: 4000.5}}, "z"},
		{"next outside", CheckpointParams{Radius: 1, Next: &grid.Vec{X: 7000}}, "next_x"},
	}
	for _, tt := range tests {
		_, err := f.w.CreateCheckpoint(p, tt.cp)
		wantArgErr(t, err, "create_checkpoint", tt.arg)
		var we *wire.Error
		if !errors.As(err, &we) {
			t.Errorf("%s: got %v, want Checkpoint's send rule", tt.name, err)
		}
	}
	if _, err := f.w.CreateCheckpoint(nil, CheckpointParams{Radius: 1}); !errors.Is(err, ErrState) {
		t.Errorf("no player: got %v, want ErrState", err)
	}
}

func TestCheckpointShownInScopeUpTo16(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	q, cq := f.join()
	f.spawn(p, c, grid.Vec{})
	f.spawn(q, cq, grid.Vec{})
	m, mq := newMirror(), newMirror()
	next := grid.Vec{X: 50, Y: 60, Z: 7}
	first := f.checkpoint(p, CheckpointParams{Kind: CheckpointRace, Pos: grid.Vec{X: 1000}, Next: &next, Radius: 8, Color: 0xFF0000})
	m.apply(t, c)
	mq.apply(t, cq)
	wantIDs(t, "owner", ids(m.cps), first)
	wantIDs(t, "another player", ids(mq.cps))
	got := m.cps[first]
	if got.Kind != CheckpointRace || got.X != 1000 || got.NextX != 50 || got.NextZ != 7 || got.Radius != 8 || got.Color != 0xFF0000 {
		t.Fatalf("got %+v, want the checkpoint's fields", got)
	}
	plain := f.checkpoint(p, CheckpointParams{Pos: grid.Vec{X: 1001, Y: 2}})
	m.apply(t, c)
	if got := m.cps[plain]; got.NextX != 1001 || got.NextY != 2 {
		t.Fatalf("no next point: got next (%v, %v), want the position", got.NextX, got.NextY)
	}
	// 16 nearest of 20 (the first two are the farthest).
	var want []uint32
	for i := range 18 {
		id := f.checkpoint(p, CheckpointParams{Pos: grid.Vec{X: float32(i)}})
		if i < 16 {
			want = append(want, id)
		}
	}
	m.apply(t, c)
	wantIDs(t, "16 nearest", ids(m.cps), want...)
	// Another scope: hidden; back: shown.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{}, Interior: 2}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	m.apply(t, c)
	wantIDs(t, "in an interior", ids(m.cps))
	inner := f.checkpoint(p, CheckpointParams{Scope: grid.Scope{Interior: 2}})
	m.apply(t, c)
	wantIDs(t, "its checkpoint in the interior", ids(m.cps), inner)
	if err := f.w.DeleteCheckpoint(inner); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	wantIDs(t, "deleted", ids(m.cps))
	if f.w.Checkpoint(inner) != nil {
		t.Fatal("Checkpoint after delete: got one, want nil")
	}
}

func TestCheckpointForms(t *testing.T) {
	tests := []struct {
		name   string
		kind   uint8
		radius float32
		at     grid.Vec // relative to the checkpoint
		in     bool
	}{
		{"ground center", CheckpointNormal, 3, grid.Vec{}, true},
		{"ground edge", CheckpointNormal, 3, grid.Vec{X: 3}, true},
		{"ground past edge", CheckpointNormal, 3, grid.Vec{X: 3.01}, false},
		{"ground 5 up with radius 3", CheckpointRace, 3, grid.Vec{Z: 5}, true},
		{"ground 5 down with radius 3", CheckpointRaceFinish, 3, grid.Vec{Z: -5}, true},
		{"ground 5.1 up with radius 3", CheckpointNormal, 3, grid.Vec{Z: 5.1}, false},
		{"ground 9 up with radius 10", CheckpointNormal, 10, grid.Vec{Z: 9}, true},
		{"ground 10.5 down with radius 10", CheckpointNormal, 10, grid.Vec{Z: -10.5}, false},
		{"ground corner of the cylinder", CheckpointNormal, 10, grid.Vec{X: 9.9, Z: 9.9}, true},
		{"air center", CheckpointAir, 10, grid.Vec{}, true},
		{"air 9.9 up", CheckpointAirFinish, 10, grid.Vec{Z: 9.9}, true},
		{"air corner of the cylinder", CheckpointAir, 10, grid.Vec{X: 9.9, Z: 9.9}, false},
		{"air 4 up with radius 3", CheckpointAir, 3, grid.Vec{Z: 4}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			p, c := f.join()
			base := grid.Vec{X: 100, Y: 100, Z: 50}
			f.spawn(p, c, grid.Vec{X: 200, Y: 100, Z: 50})
			f.walk(p, c, grid.Vec{X: 190, Y: 100, Z: 50}) // a sync at a point outside
			id := f.checkpoint(p, CheckpointParams{Kind: tt.kind, Pos: base, Radius: tt.radius})
			if got := f.takeCrossings(); len(got) != 0 {
				t.Fatalf("created away from the player: got %v, want none", got)
			}
			f.walk(p, c, grid.Vec{X: base.X + tt.at.X, Y: base.Y + tt.at.Y, Z: base.Z + tt.at.Z})
			var want []string
			if tt.in {
				want = []string{fmt.Sprintf("p0 cp_enter %d", id)}
			}
			if got := f.takeCrossings(); !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

func TestCheckpointEntryAndExit(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 50})
	id := f.checkpoint(p, CheckpointParams{Radius: 5})
	ev := func(e string) string { return fmt.Sprintf("p0 %s %d", e, id) }
	check := func(what string, want ...string) {
		t.Helper()
		if got := f.takeCrossings(); !slices.Equal(got, want) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
	check("created away")
	f.walk(p, c, grid.Vec{X: 2})
	check("walked in", ev("cp_enter"))
	f.walk(p, c, grid.Vec{X: 1})
	check("moved inside")
	f.walk(p, c, grid.Vec{X: 10})
	check("walked out", ev("cp_leave"))
	// A change moving the checkpoint onto the player is an entry.
	if err := f.w.SetCheckpoint(id, CheckpointParams{Pos: grid.Vec{X: 9}, Radius: 5}); err != nil {
		t.Fatal(err)
	}
	check("moved onto the player", ev("cp_enter"))

	// Death is an exit; a dead player's syncs enter nothing.
	f.sync(p, c, grid.Vec{X: 10}, 4)
	check("died inside", ev("cp_leave"))
	f.walk(p, c, grid.Vec{X: 9})
	check("dead, moved")
	// A respawn inside: the entry waits for the sync confirming the landing.
	if err := f.w.Respawn(p, Landing{Pos: grid.Vec{X: 9}}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	check("respawned, no sync yet")
	f.walk(p, c, grid.Vec{X: 9})
	check("respawned, synced", ev("cp_enter"))
	// A teleport within the scope is not an exit by itself.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 500}}); err != nil {
		t.Fatal(err)
	}
	check("teleport in the scope, no sync yet")
	f.walk(p, c, grid.Vec{X: 500})
	check("teleport confirmed", ev("cp_leave"))
	f.walk(p, c, grid.Vec{X: 300})
	f.walk(p, c, grid.Vec{X: 100})
	f.walk(p, c, grid.Vec{X: 9})
	check("walked back in", ev("cp_enter"))
	// A change of scope is an exit at once.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 9}, World: 3}); err != nil {
		t.Fatal(err)
	}
	check("teleport to another world", ev("cp_leave"))
	f.walk(p, c, grid.Vec{X: 9})
	check("in the other world at the same point")
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 9}}); err != nil {
		t.Fatal(err)
	}
	f.walk(p, c, grid.Vec{X: 9})
	check("back", ev("cp_enter"))
	// Deleting raises nothing; neither does leaving.
	if err := f.w.DeleteCheckpoint(id); err != nil {
		t.Fatal(err)
	}
	check("deleted while inside")
	id2 := f.checkpoint(p, CheckpointParams{Pos: grid.Vec{X: 9}, Radius: 5})
	check("created on the player", fmt.Sprintf("p0 cp_enter %d", id2))
	f.w.Leave(p, wire.ReasonQuit)
	check("left while inside")
	if f.w.Checkpoint(id2) != nil {
		t.Fatal("the player left: checkpoint still exists, want deleted")
	}
}

func TestCheckpointCrossingLimit(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 50})
	var all []uint32
	for range 26 {
		all = append(all, f.checkpoint(p, CheckpointParams{Radius: 5}))
	}
	f.walk(p, c, grid.Vec{})
	if got := f.takeCrossings(); len(got) != CrossingBurst {
		t.Fatalf("26 entries at once: got %d events, want %d", len(got), CrossingBurst)
	}
	// The rest come at 4 a second, on ticks, none lost, in order.
	var got []string
	start := f.now
	for range 40 {
		f.advance(tick)
		ev := f.takeCrossings()
		if len(ev) > 1 {
			t.Fatalf("at %v: got %d events on one tick, want at most 1 at 4 a second", f.now.Sub(start), len(ev))
		}
		got = append(got, ev...)
	}
	var want []string
	for _, id := range all[CrossingBurst:] {
		want = append(want, fmt.Sprintf("p0 cp_enter %d", id))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("deferred: got %v, want %v", got, want)
	}
	// An exit while the bucket is empty waits too, and is not lost; a
	// deleted checkpoint's deferred crossing is dropped without an event.
	f.walk(p, c, grid.Vec{X: 20})
	n := len(f.takeCrossings())
	if n > 10 {
		t.Fatalf("exits after 2 s of refill: got %d at once, want at most 9", n)
	}
	if err := f.w.DeleteCheckpoint(all[25]); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		f.advance(tick)
		n += len(f.takeCrossings())
	}
	if n != 25 {
		t.Fatalf("exits: got %d events in all, want 25 (26 minus the deleted one)", n)
	}
	if got := f.w.Stats().CrossingsCancelled; got != 0 {
		t.Fatalf("got %d cancelled, want 0", got)
	}
}

func TestCheckpointQueueIsBounded(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 50})
	id := f.checkpoint(p, CheckpointParams{Radius: 5})
	for range CrossingBurst + 20 {
		f.checkpoint(p, CheckpointParams{Pos: grid.Vec{X: 1000}, Radius: 5})
	}
	// Empty the bucket, then cross one checkpoint back and forth fast.
	f.walk(p, c, grid.Vec{X: 6.5})
	p.prims.cross.tokens = 0
	p.prims.cross.at = f.now
	for i := range 200 {
		x := float32(6.5) // 4.5 m apart: within the sync slack
		if i%2 == 0 {
			x = 2
		}
		f.now = f.now.Add(time.Millisecond)
		f.sync(p, c, grid.Vec{X: x}, 1)
	}
	if got := len(p.prims.cross.queue); got > MaxQueuedCrossings+1 {
		t.Fatalf("got %d queued crossings, want at most %d", got, MaxQueuedCrossings+1)
	}
	if f.w.Stats().CrossingsCancelled == 0 {
		t.Fatal("got no cancelled crossings, want the pairs past the bound counted")
	}
	// What is delivered alternates enter / leave and ends with the state.
	for range 400 {
		f.advance(tick)
	}
	evs := f.takeCrossings()
	for i, e := range evs {
		want := "cp_enter"
		if i%2 == 1 {
			want = "cp_leave"
		}
		if e != fmt.Sprintf("p0 %s %d", want, id) {
			t.Fatalf("event %d: got %q, want %s", i, e, want)
		}
	}
	if len(evs)%2 != 0 {
		t.Fatalf("got %d events, want an even number (the player ends outside)", len(evs))
	}
}

func TestCheckpointEventHandlerMayDelete(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 50})
	a := f.checkpoint(p, CheckpointParams{Radius: 5})
	b := f.checkpoint(p, CheckpointParams{Radius: 5})
	f.gm.onCross = func(p *Player, ev string, id uint32) {
		if ev == "cp_enter" && id == a {
			if err := f.w.DeleteCheckpoint(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.walk(p, c, grid.Vec{})
	if got, want := f.takeCrossings(), []string{fmt.Sprintf("p0 cp_enter %d", a)}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v (b deleted by the handler before its event)", got, want)
	}
}

// respawnOnDeath is the fixture's recorder, respawning a player from
// their death event.
type respawnOnDeath struct {
	*recorder
	w  *World
	at grid.Vec
}

func (r respawnOnDeath) PlayerDeath(p *Player) {
	r.recorder.PlayerDeath(p)
	r.recorder.crossings = append(r.recorder.crossings, "death")
	if err := r.w.Respawn(p, Landing{Pos: r.at}); err != nil {
		panic(err)
	}
}

func TestCheckpointDeathExitBeforeARespawnInTheHandler(t *testing.T) {
	f := newFixture(t, nil)
	f.w.gm = respawnOnDeath{recorder: f.gm, w: f.w, at: grid.Vec{X: 2}}
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 50})
	id := f.checkpoint(p, CheckpointParams{Radius: 5})
	f.walk(p, c, grid.Vec{X: 1})
	f.takeCrossings()
	// Dies inside and is respawned inside from the death event: the exit
	// comes before the death, the entry with the sync confirming the respawn.
	f.sync(p, c, grid.Vec{X: 1}, 4)
	want := []string{fmt.Sprintf("p0 cp_leave %d", id), "death"}
	if got := f.takeCrossings(); !slices.Equal(got, want) {
		t.Fatalf("died inside: got %v, want %v", got, want)
	}
	if p.Life() != Alive {
		t.Fatalf("got %v, want respawned", p.Life())
	}
	f.advance(tick)
	if got := f.takeCrossings(); len(got) != 0 {
		t.Fatalf("respawned, no sync yet: got %v, want none", got)
	}
	f.walk(p, c, grid.Vec{X: 2})
	want = []string{fmt.Sprintf("p0 cp_enter %d", id)}
	if got := f.takeCrossings(); !slices.Equal(got, want) {
		t.Fatalf("respawn confirmed inside: got %v, want %v", got, want)
	}
}
