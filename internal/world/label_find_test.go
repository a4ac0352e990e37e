package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// labelShows returns the text of each label show in ss, by label id, and
// the ids hidden.
func labelShows(ss []sent) (shows map[uint32]string, hides []uint32) {
	shows = map[uint32]string{}
	for _, l := range only[*wire.Label3D](ss) {
		if l.Active == 0 {
			hides = append(hides, l.LabelID)
			continue
		}
		shows[l.LabelID] = l.TextString()
	}
	return shows, hides
}

// TestLabelFindSharedSlot: two labels whose ids share a slot of the sends'
// table (label_find.go), both near a viewer, and a label deleted while its
// show is left. Each show carries its own label's text, and the deleted
// label's show is never sent. It fails when a slot's label is taken without
// its id checked (the other label's bytes go out), or when a deletion does
// not clear the slot (the deleted label is shown).
func TestLabelFindSharedSlot(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	a := f.label(LabelParams{Text: "a"})
	if got, _ := labelShows(c.take()); got[a] != "a" {
		t.Fatalf("got shows %v, want label %d shown as a", got, a)
	}
	for id := a + 1; id < a+1<<labelFindBits; id++ { // far from p
		if got := f.label(LabelParams{Pos: grid.Vec{X: 3000}}); got != id {
			t.Fatalf("got label id %d, want %d", got, id)
		}
	}
	b := f.label(LabelParams{Text: "b", Pos: grid.Vec{X: 1}})
	if b&(1<<labelFindBits-1) != a&(1<<labelFindBits-1) {
		t.Fatalf("labels %d and %d do not share a slot", a, b)
	}
	if got, _ := labelShows(c.take()); len(got) != 1 || got[b] != "b" {
		t.Fatalf("got shows %v, want label %d shown as b", got, b)
	}
	for _, tt := range []struct {
		id   uint32
		want *Label
	}{{a, f.w.Label(a)}, {b, f.w.Label(b)}, {b + 1<<labelFindBits, nil}} {
		if got := f.w.labelByID(tt.id); got != tt.want {
			t.Errorf("labelByID(%d) = %p, want %p", tt.id, got, tt.want)
		}
	}

	// a's slot holds b: a's new text is sent as a's.
	if err := f.w.SetLabel(a, LabelParams{Text: "a2", DrawDistance: 50}); err != nil {
		t.Fatal(err)
	}
	if got, _ := labelShows(c.take()); len(got) != 1 || got[a] != "a2" {
		t.Fatalf("after a's change got shows %v, want label %d shown as a2", got, a)
	}

	// e's show is left (no room), then e is deleted: its slot is cleared
	// and the flush drops the show.
	c.free = SendReserve
	e := f.label(LabelParams{Text: "e", Pos: grid.Vec{Y: 1}})
	if n := p.prims.labels.Pending(); n != 1 {
		t.Fatalf("got %d label ops left without room, want 1", n)
	}
	if err := f.w.DeleteLabel(e); err != nil {
		t.Fatal(err)
	}
	if got := f.w.labelByID(e); got != nil {
		t.Errorf("labelByID(%d) of a deleted label = %p, want nil", e, got)
	}
	c.free = 4096
	f.w.flushLabels(p) // as a tick does while ops are left, without a slow pass
	if got, _ := labelShows(c.take()); len(got) != 0 {
		t.Errorf("after e's deletion got shows %v, want none", got)
	}
	if n := p.prims.labels.Pending(); n != 0 {
		t.Errorf("got %d label ops left, want 0", n)
	}
	if _, shown := p.prims.labels.Shown(e); shown {
		t.Errorf("deleted label %d still in the view", e)
	}
	if got := f.w.labelByID(a); got == nil || got.params.Text != "a2" {
		t.Errorf("labelByID(%d) = %v, want label a2", a, got)
	}
}
