package world

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestCreateColshapeUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name string
		cp   ColshapeParams
		arg  string
	}{
		{"form 3", ColshapeParams{Form: 3, B: grid.Vec{X: 1}}, "form"},
		{"sphere radius 0", ColshapeParams{Form: FormSphere}, "b_x"},
		{"sphere b_y", ColshapeParams{Form: FormSphere, B: grid.Vec{X: 1, Y: 1}}, "b_y"},
		{"cylinder height past 12000", ColshapeParams{Form: FormCylinder, B: grid.Vec{X: 1, Y: 12001}}, "b_y"},
		{"box flat", ColshapeParams{Form: FormBox, B: grid.Vec{X: 1, Y: 1}}, "b_z"},
		{"center outside", ColshapeParams{Form: FormSphere, A: grid.Vec{X: 6001}, B: grid.Vec{X: 1}}, "a_x"},
	}
	for _, tt := range tests {
		_, err := f.w.CreateColshape(tt.cp)
		wantArgErr(t, err, "create_colshape", tt.arg)
		var we *wire.Error
		if !errors.As(err, &we) {
			t.Errorf("%s: got %v, want ColshapeShape's send rule", tt.name, err)
		}
	}
	p, _ := f.join()
	for _, err := range []error{f.w.ShowColshape(99, p), f.w.HideColshape(99, p), f.w.DeleteColshape(99), f.w.SetColshape(99, ColshapeParams{})} {
		if !errors.Is(err, ErrState) {
			t.Errorf("no such colshape: got %v, want ErrState", err)
		}
	}
}

func TestColshapeOutlineShownOnlyWhereShown(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{})
	f.spawn(b, cb, grid.Vec{})
	ma, mb := newMirror(), newMirror()
	id := f.colshape(ColshapeParams{Form: FormCylinder, A: grid.Vec{X: 10, Y: 20, Z: 3}, B: grid.Vec{X: 4, Y: 6}})
	f.slowPass()
	ma.apply(t, ca)
	mb.apply(t, cb)
	wantIDs(t, "nobody by default (a)", ids(ma.cols))
	wantIDs(t, "nobody by default (b)", ids(mb.cols))
	if err := f.w.ShowColshape(id, a); err != nil {
		t.Fatal(err)
	}
	ma.apply(t, ca)
	mb.apply(t, cb)
	wantIDs(t, "shown to a", ids(ma.cols), id)
	wantIDs(t, "not to b", ids(mb.cols))
	if got := ma.cols[id]; got.Form != FormCylinder || got.AX != 10 || got.AZ != 3 || got.BX != 4 || got.BY != 6 || got.Rev != 1 {
		t.Fatalf("got %+v, want the cylinder at rev 1", got)
	}
	// A change: rev grows, resent.
	if err := f.w.SetColshape(id, ColshapeParams{Form: FormBox, A: grid.Vec{X: 1, Y: 1, Z: 1}, B: grid.Vec{X: 2, Y: 3, Z: 4}}); err != nil {
		t.Fatal(err)
	}
	ma.apply(t, ca)
	if got := ma.cols[id]; got.Form != FormBox || got.BZ != 4 || got.Rev != 2 {
		t.Fatalf("after the change: got %+v, want the box at rev 2", got)
	}
	// Scope: another interior hides it; back shows it.
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{}, Interior: 1}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	wantIDs(t, "a in an interior", ids(ma.cols))
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{}}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	ma.apply(t, ca)
	wantIDs(t, "a back", ids(ma.cols), id)
	if err := f.w.HideColshape(id, a); err != nil {
		t.Fatal(err)
	}
	ma.apply(t, ca)
	wantIDs(t, "hidden from a", ids(ma.cols))
	// The show set is discarded when the player leaves: a new connection
	// in the same slot sees nothing.
	if err := f.w.ShowColshape(id, a); err != nil {
		t.Fatal(err)
	}
	f.w.Leave(a, wire.ReasonQuit)
	a2, ca2 := f.join()
	f.spawn(a2, ca2, grid.Vec{})
	f.slowPass()
	ma2 := newMirror()
	ma2.apply(t, ca2)
	wantIDs(t, "new connection", ids(ma2.cols))
	if err := f.w.ShowColshape(id, b); err != nil {
		t.Fatal(err)
	}
	mb.apply(t, cb)
	if err := f.w.DeleteColshape(id); err != nil {
		t.Fatal(err)
	}
	mb.apply(t, cb)
	wantIDs(t, "deleted", ids(mb.cols))
}

func TestColshapeNearest256ByCenter(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	var want []uint32
	for i := range 300 {
		// Cylinders whose base is near but whose center is 500 m up come
		// after the spheres.
		var id uint32
		if i < 44 {
			id = f.colshape(ColshapeParams{Form: FormCylinder, A: grid.Vec{X: float32(i)}, B: grid.Vec{X: 1, Y: 1000}})
		} else {
			id = f.colshape(ColshapeParams{Form: FormSphere, A: grid.Vec{X: float32(i)}, B: grid.Vec{X: 1}})
			want = append(want, id)
		}
		if err := f.w.ShowColshape(id, p); err != nil {
			t.Fatal(err)
		}
	}
	f.advance(tick)
	m := newMirror()
	m.apply(t, c)
	wantIDs(t, "256 nearest by center", ids(m.cols), want...)
}

func TestColshapeForms(t *testing.T) {
	sphere := Colshape{params: ColshapeParams{Form: FormSphere, A: grid.Vec{X: 10}, B: grid.Vec{X: 2}}}
	cyl := Colshape{params: ColshapeParams{Form: FormCylinder, A: grid.Vec{Z: 10}, B: grid.Vec{X: 2, Y: 4}}}
	box := Colshape{params: ColshapeParams{Form: FormBox, A: grid.Vec{X: -1, Y: -2, Z: -3}, B: grid.Vec{X: 1, Y: 2, Z: 3}}}
	tests := []struct {
		name string
		c    *Colshape
		at   grid.Vec
		in   bool
	}{
		{"sphere center", &sphere, grid.Vec{X: 10}, true},
		{"sphere surface", &sphere, grid.Vec{X: 10, Z: 2}, true},
		{"sphere past", &sphere, grid.Vec{X: 10, Y: 1.5, Z: 1.5}, false},
		{"cylinder base", &cyl, grid.Vec{X: 2, Z: 10}, true},
		{"cylinder top", &cyl, grid.Vec{Y: -2, Z: 14}, true},
		{"cylinder below", &cyl, grid.Vec{Z: 9.9}, false},
		{"cylinder above", &cyl, grid.Vec{Z: 14.1}, false},
		{"cylinder side", &cyl, grid.Vec{X: 1.5, Y: 1.5, Z: 12}, false},
		{"box corner", &box, grid.Vec{X: 1, Y: -2, Z: 3}, true},
		{"box past z", &box, grid.Vec{Z: 3.01}, false},
		{"box past x", &box, grid.Vec{X: -1.01}, false},
	}
	for _, tt := range tests {
		if got := tt.c.Contains(tt.at); got != tt.in {
			t.Errorf("%s: Contains(%v) got %v, want %v", tt.name, tt.at, got, tt.in)
		}
	}
	if got := cyl.Center(); got != (grid.Vec{Z: 12}) {
		t.Errorf("cylinder center: got %v, want (0, 0, 12)", got)
	}
	if got := box.Center(); got != (grid.Vec{}) {
		t.Errorf("box center: got %v, want the origin", got)
	}
}

func TestColshapeEnterAndLeave(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	q, cq := f.join()
	f.spawn(p, c, grid.Vec{X: 50})
	f.spawn(q, cq, grid.Vec{X: 300})
	id := f.colshape(ColshapeParams{Form: FormSphere, B: grid.Vec{X: 10}})
	big := f.colshape(ColshapeParams{Form: FormBox, A: grid.Vec{X: -1000, Y: -1000, Z: -100}, B: grid.Vec{X: 1000, Y: 1000, Z: 100}})
	ev := func(p *Player, e string, id uint32) string { return fmt.Sprintf("p%d %s %d", p.ID(), e, id) }
	check := func(what string, want ...string) {
		t.Helper()
		if got := f.takeCrossings(); !slices.Equal(got, want) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
	check("created: both synced inside the box", ev(p, "col_enter", big), ev(q, "col_enter", big))
	f.walk(p, c, grid.Vec{X: 40})
	check("p moved inside the box")
	f.walk(p, c, grid.Vec{X: 5})
	check("p walked into the sphere", ev(p, "col_enter", id))
	f.walk(p, c, grid.Vec{X: 6})
	check("moved inside")
	// Death is not a leave: the body is still there.
	f.sync(p, c, grid.Vec{X: 6}, 4)
	check("died inside")
	f.walk(p, c, grid.Vec{X: 20})
	check("dead body moved out", ev(p, "col_leave", id))
	if err := f.w.Respawn(p, Landing{Pos: grid.Vec{X: 20}}); err != nil {
		t.Fatal(err)
	}
	f.walk(p, c, grid.Vec{X: 20})
	// Moving the colshape onto a player enters at once.
	if err := f.w.SetColshape(id, ColshapeParams{Form: FormSphere, A: grid.Vec{X: 20}, B: grid.Vec{X: 10}}); err != nil {
		t.Fatal(err)
	}
	check("colshape moved onto p", ev(p, "col_enter", id))
	// A change of scope leaves everything.
	if err := f.w.Teleport(p, Landing{Pos: grid.Vec{X: 20}, World: 4}); err != nil {
		t.Fatal(err)
	}
	got := f.takeCrossings()
	slices.Sort(got)
	want := []string{ev(p, "col_leave", id), ev(p, "col_leave", big)}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("scope change: got %v, want %v", got, want)
	}
	f.walk(p, c, grid.Vec{X: 20})
	check("same point in world 4")
	// Deleting and leaving raise nothing.
	f.walk(q, cq, grid.Vec{X: 290})
	check("q moved inside the box")
	if err := f.w.DeleteColshape(big); err != nil {
		t.Fatal(err)
	}
	check("deleted with q inside")
	third := f.colshape(ColshapeParams{Form: FormSphere, A: grid.Vec{X: 290}, B: grid.Vec{X: 5}})
	check("created on q", ev(q, "col_enter", third))
	f.w.Leave(q, wire.ReasonQuit)
	check("q left inside")
}
