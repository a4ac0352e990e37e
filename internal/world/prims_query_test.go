package world

import (
	"slices"
	"testing"

	"dlmp/internal/grid"
)

func TestPrimitiveQueries(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	q, _ := f.join()
	if p.LabelShown(1) || p.BlipShown(1) || p.GangZoneShown(1) || p.CheckpointShown(1) || p.ColshapeShown(1) {
		t.Fatal("before any tick: got something shown, want nothing")
	}
	f.spawn(p, c, grid.Vec{})
	l := f.label(LabelParams{})
	b := f.blip(BlipParams{})
	z := f.zone(ZoneParams{})
	if err := f.w.ShowGangZone(z, p); err != nil {
		t.Fatal(err)
	}
	cp1 := f.checkpoint(p, CheckpointParams{Pos: grid.Vec{X: 100}})
	cp2 := f.checkpoint(p, CheckpointParams{Pos: grid.Vec{X: 200}})
	col := f.colshape(ColshapeParams{Form: FormSphere, B: grid.Vec{X: 3}})
	if err := f.w.ShowColshape(col, p); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	if !p.LabelShown(l) || !p.BlipShown(b) || !p.GangZoneShown(z) || !p.CheckpointShown(cp1) || !p.ColshapeShown(col) {
		t.Fatal("got something not shown, want all shown")
	}
	if q.GangZoneShown(z) || q.CheckpointShown(cp1) || q.ColshapeShown(col) {
		t.Fatal("q: got shown, want not")
	}
	if !p.Inside(col) || q.Inside(col) {
		t.Fatalf("Inside: got p %v, q %v, want true, false", p.Inside(col), q.Inside(col))
	}
	if got := p.Checkpoints(); !slices.Equal(got, []uint32{cp1, cp2}) {
		t.Fatalf("got checkpoints %v, want %v", got, []uint32{cp1, cp2})
	}
	count := func(n int, seqLen int, what string) {
		t.Helper()
		if seqLen != n {
			t.Fatalf("%s: got %d, want %d", what, seqLen, n)
		}
	}
	n := 0
	for range f.w.Labels() {
		n++
	}
	count(1, n, "labels")
	n = 0
	for range f.w.Checkpoints() {
		n++
	}
	count(2, n, "checkpoints")
	n = 0
	for range f.w.Blips() {
		n++
		break
	}
	count(1, n, "blips, stopped early")
	n = 0
	for range f.w.GangZones() {
		n++
	}
	count(1, n, "zones")
	n = 0
	for range f.w.Colshapes() {
		n++
	}
	count(1, n, "colshapes")
}
