package world

import (
	"errors"
	"math"
	"strings"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

func TestPrimitiveIDsShareOneCounter(t *testing.T) {
	f := newFixture(t, nil)
	p, _ := f.join()
	l := f.label(LabelParams{})
	b := f.blip(BlipParams{})
	z := f.zone(ZoneParams{})
	cp := f.checkpoint(p, CheckpointParams{})
	if l != 1 || b != 2 || z != 3 || cp != 4 {
		t.Fatalf("got ids label %d, blip %d, zone %d, checkpoint %d, want 1, 2, 3, 4", l, b, z, cp)
	}
	if err := f.w.DeleteLabel(l); err != nil {
		t.Fatal(err)
	}
	if got := f.label(LabelParams{}); got != 5 {
		t.Fatalf("got label id %d after a delete, want 5 (never reused)", got)
	}
	// Colshapes have their own ids.
	if got := f.colshape(ColshapeParams{Form: FormSphere, B: grid.Vec{X: 1}}); got != 1 {
		t.Fatalf("got colshape id %d, want 1", got)
	}
}

func TestCreateLabelUsesWireRules(t *testing.T) {
	f := newFixture(t, nil)
	p, _ := f.join()
	gone, _ := f.join()
	f.w.Leave(gone, wire.ReasonQuit)
	tests := []struct {
		name string
		lp   LabelParams
		arg  string
		wire bool // refused by Label3D's send rule
	}{
		{"text too long", LabelParams{Text: strings.Repeat("a", 256), DrawDistance: 10}, "text", true},
		{"text with NUL", LabelParams{Text: "a\x00b", DrawDistance: 10}, "text", true},
		{"text not UTF-8", LabelParams{Text: "\xff", DrawDistance: 10}, "text", true},
		{"color above RGB", LabelParams{Text: "a", Color: 0x1000000, DrawDistance: 10}, "color", true},
		{"distance 0", LabelParams{Text: "a"}, "draw_distance", true},
		{"distance past 300", LabelParams{Text: "a", DrawDistance: 300.5}, "draw_distance", true},
		{"x outside world", LabelParams{Text: "a", DrawDistance: 10, Pos: grid.Vec{X: 6001}}, "x", true},
		{"z NaN", LabelParams{Text: "a", DrawDistance: 10, Pos: grid.Vec{Z: float32(math.NaN())}}, "z", true},
		{"attach kind 3", LabelParams{Text: "a", DrawDistance: 10, AttachKind: 3}, "attach_kind", true},
		{"no such vehicle", LabelParams{Text: "a", DrawDistance: 10, AttachKind: wire.AttachVehicle, AttachID: 7}, "attach_id", false},
		{"no such player", LabelParams{Text: "a", DrawDistance: 10, AttachKind: wire.AttachPlayer, AttachID: 7}, "attach_id", false},
		{"attach id without kind", LabelParams{Text: "a", DrawDistance: 10, AttachID: 7}, "attach_id", false},
		{"viewer left", LabelParams{Text: "a", DrawDistance: 10, Viewer: gone}, "viewer", false},
	}
	for _, tt := range tests {
		_, err := f.w.CreateLabel(tt.lp)
		wantArgErr(t, err, "create_label", tt.arg)
		var we *wire.Error
		if got := errors.As(err, &we); got != tt.wire {
			t.Errorf("%s: got %v, wire rule %v, want %v", tt.name, err, got, tt.wire)
		}
	}
	for _, lp := range []LabelParams{
		{Text: strings.Repeat("é", 127) + "a", Color: 0xFFFFFF, DrawDistance: 300, Pos: grid.Vec{X: -6000, Y: 6000, Z: 4000}},
		{Text: "", DrawDistance: 0.01, Pos: grid.Vec{Z: -200}},
		{Text: "on", DrawDistance: 1, AttachKind: wire.AttachPlayer, AttachID: uint32(p.ID()), Viewer: p},
	} {
		if _, err := f.w.CreateLabel(lp); err != nil {
			t.Errorf("%+v at the edge: %v", lp, err)
		}
	}
	if err := f.w.SetLabel(99, LabelParams{Text: "a", DrawDistance: 1}); !errors.Is(err, ErrState) {
		t.Errorf("SetLabel of no label: got %v, want ErrState", err)
	}
	if err := f.w.DeleteLabel(99); !errors.Is(err, ErrState) {
		t.Errorf("DeleteLabel of no label: got %v, want ErrState", err)
	}
}

func TestLabelScopeAndDrawDistance(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	far, cf := f.join()
	f.spawn(a, ca, grid.Vec{X: 10})
	f.spawnIn(b, cb, grid.Vec{X: 10}, grid.Scope{World: 1})
	f.spawn(far, cf, grid.Vec{X: 60.5})
	ma, mb, mf := newMirror(), newMirror(), newMirror()

	id := f.label(LabelParams{Text: "shop", Color: 0x00FF00, Pos: grid.Vec{Z: 1}, DrawDistance: 50})
	ma.apply(t, ca)
	mb.apply(t, cb)
	mf.apply(t, cf)
	wantIDs(t, "same scope, within 50 m", ids(ma.labels), id)
	wantIDs(t, "other world", ids(mb.labels))
	wantIDs(t, "60 m away", ids(mf.labels))
	got := ma.labels[id]
	if got.TextString() != "shop" || got.Color != 0x00FF00 || got.Z != 1 || got.DrawDistance != 50 || got.AttachKind != 0 {
		t.Fatalf("got %+v, want the label's fields", got)
	}

	// Walking into range shows it on the next slow pass, not before.
	f.slowPass()
	f.walk(far, cf, grid.Vec{X: 45})
	for f.now.Add(tick).Before(far.prims.due) {
		f.advance(tick)
		mf.apply(t, cf)
		wantIDs(t, "walked within 50 m, before the slow pass", ids(mf.labels))
	}
	f.advance(tick)
	mf.apply(t, cf)
	wantIDs(t, "walked within 50 m, after a slow pass", ids(mf.labels), id)
	// And out again: hidden.
	f.walk(far, cf, grid.Vec{X: 80})
	f.slowPass()
	mf.apply(t, cf)
	wantIDs(t, "walked out", ids(mf.labels))

	// A change of scope (teleport into the label's world) shows it; back out hides.
	if err := f.w.Teleport(b, Landing{Pos: grid.Vec{X: 10}}); err != nil {
		t.Fatal(err)
	}
	f.advance(tick)
	mb.apply(t, cb)
	wantIDs(t, "teleported into the scope", ids(mb.labels), id)
}

func TestLabelReconcileOnChangeAndOnceASecond(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	f.slowPass()
	m := newMirror()
	m.apply(t, c)
	id := f.label(LabelParams{Text: "a", DrawDistance: 20})
	if ss := m.apply(t, c); len(ss) != 1 {
		t.Fatalf("create: got %d packets at once, want 1 show", len(ss))
	}
	// A change resends at once.
	if err := f.w.SetLabel(id, LabelParams{Text: "b", Color: 0xFF, DrawDistance: 20}); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	if got := m.labels[id]; got.TextString() != "b" || got.Color != 0xFF {
		t.Fatalf("after SetLabel: got %q color %06X, want \"b\" 0000FF", got.TextString(), got.Color)
	}
	// Unchanged labels are not resent by the slow pass.
	f.slowPass()
	if ss := m.apply(t, c); len(ss) != 0 {
		t.Fatalf("slow pass without change: got %d packets, want 0", len(ss))
	}
	// Moving the label out of reach hides it at once; into another scope too.
	if err := f.w.SetLabel(id, LabelParams{Text: "b", DrawDistance: 20, Pos: grid.Vec{X: 30}}); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	wantIDs(t, "moved 30 m away", ids(m.labels))
	if err := f.w.SetLabel(id, LabelParams{Text: "b", DrawDistance: 20, Scope: grid.Scope{Interior: 3}}); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	wantIDs(t, "moved into an interior", ids(m.labels))
	if err := f.w.SetLabel(id, LabelParams{Text: "b", DrawDistance: 20}); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	wantIDs(t, "back", ids(m.labels), id)
	if err := f.w.DeleteLabel(id); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	wantIDs(t, "deleted", ids(m.labels))
	if f.w.Label(id) != nil {
		t.Fatal("Label after delete: got a label, want nil")
	}
}

func TestLabelNearest256(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	var want []uint32
	for i := range 300 {
		id := f.label(LabelParams{DrawDistance: 300, Pos: grid.Vec{X: float32(i)*0.5 + 1}})
		if i < 256 {
			want = append(want, id)
		}
	}
	m := newMirror()
	m.apply(t, c)
	wantIDs(t, "256 nearest", ids(m.labels), want...)
	// A nearer one evicts the farthest.
	near := f.label(LabelParams{DrawDistance: 300, Pos: grid.Vec{X: 0.1}})
	m.apply(t, c)
	want = append(want[:255], near)
	wantIDs(t, "after a nearer one", ids(m.labels), want...)
	// Deleting a shown one from the full view: the next nearest takes its
	// place at once.
	next := want[254] + 1 // the 256th nearest of the first 300
	if err := f.w.DeleteLabel(want[0]); err != nil {
		t.Fatal(err)
	}
	m.apply(t, c)
	want = append(want[1:], next)
	wantIDs(t, "after a delete", ids(m.labels), want...)
}

func TestLabelViewer(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{})
	f.spawn(b, cb, grid.Vec{X: 1})
	ma, mb := newMirror(), newMirror()
	id := f.label(LabelParams{Viewer: b})
	ma.apply(t, ca)
	mb.apply(t, cb)
	wantIDs(t, "not the viewer", ids(ma.labels))
	wantIDs(t, "the viewer", ids(mb.labels), id)
	// The viewer leaving deletes the label.
	f.w.Leave(b, wire.ReasonQuit)
	if f.w.Label(id) != nil {
		t.Fatal("viewer left: label still exists, want deleted")
	}
}

func TestLabelAttachedToPlayer(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{})
	f.spawn(b, cb, grid.Vec{X: 10})
	ma, mb := newMirror(), newMirror()
	id := f.label(LabelParams{Text: "[VIP]", DrawDistance: 40, Pos: grid.Vec{Z: 1}, AttachKind: wire.AttachPlayer, AttachID: uint32(a.ID())})
	f.slowPass() // players are streamed to each other on the tick
	ma.apply(t, ca)
	mb.apply(t, cb)
	wantIDs(t, "the attached player", ids(ma.labels))
	wantIDs(t, "another player near", ids(mb.labels), id)
	if got := mb.labels[id]; got.AttachKind != wire.AttachPlayer || got.AttachID != uint32(a.ID()) || got.Z != 1 || got.X != 0 {
		t.Fatalf("got %+v, want attach player %d at offset (0, 0, 1)", got, a.ID())
	}
	// The distance counts from the entity: a walks 45 m away (the label 45
	// m from b, still streamed): hidden past the draw distance.
	f.walk(a, ca, grid.Vec{X: 55})
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "entity 45 m away, draw distance 40", ids(mb.labels))
	f.walk(a, ca, grid.Vec{X: 20})
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "entity back", ids(mb.labels), id)
	// Hidden once the entity is no longer streamed to b (another scope),
	// though the label's draw distance would reach.
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{X: 20}, Interior: 1}); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "entity in another scope", ids(mb.labels))
	if err := f.w.Teleport(a, Landing{Pos: grid.Vec{X: 20}}); err != nil {
		t.Fatal(err)
	}
	f.slowPass()
	mb.apply(t, cb)
	wantIDs(t, "entity back in scope", ids(mb.labels), id)
	// Deleting the entity (its leave) deletes the label: b gets a hide.
	f.w.Leave(a, wire.ReasonQuit)
	mb.apply(t, cb)
	wantIDs(t, "entity left", ids(mb.labels))
	if f.w.Label(id) != nil {
		t.Fatal("entity left: label still exists, want deleted")
	}
}

func TestLabelStreamedUsesPlayerStreamDistance(t *testing.T) {
	f := newFixture(t, nil)
	a, ca := f.join()
	b, cb := f.join()
	f.spawn(a, ca, grid.Vec{})
	f.spawn(b, cb, grid.Vec{X: 150})
	mb := newMirror()
	f.label(LabelParams{DrawDistance: 300, AttachKind: wire.AttachPlayer, AttachID: uint32(a.ID())})
	f.slowPass() // players are streamed to each other on the tick
	mb.apply(t, cb)
	if len(mb.labels) != 1 {
		t.Fatalf("entity 150 m away: got %d labels, want 1", len(mb.labels))
	}
	f.walk(b, cb, grid.Vec{X: PlayerStreamDistance + 1})
	f.slowPass()
	mb.apply(t, cb)
	if len(mb.labels) != 0 {
		t.Fatalf("entity past the player stream distance: got %d labels, want 0", len(mb.labels))
	}
}

func TestLabelsWaitForQueueRoom(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	c.free = SendReserve + 10
	for i := range 30 {
		f.label(LabelParams{Pos: grid.Vec{X: float32(i)}})
	}
	m := newMirror()
	m.apply(t, c)
	if len(m.labels) != 10 {
		t.Fatalf("with 10 slots above the reserve: got %d shown, want 10", len(m.labels))
	}
	c.free = 4096
	f.advance(tick)
	m.apply(t, c)
	if len(m.labels) != 30 {
		t.Fatalf("next tick with room: got %d shown, want 30", len(m.labels))
	}
}

// A player's leave deletes the label on them: only the players who show it
// get a hide, and nobody's labels reconcile (in a crowd that was every
// player's reconcile per leave). A full view reconciles: the next nearest
// label takes the place.
func TestDeletedLabelHiddenWithoutReconcile(t *testing.T) {
	f := newFixture(t, nil)
	const n = 6
	ps := make([]*Player, n)
	cs := make([]*testConn, n)
	ms := make([]*mirror, n)
	for i := range n {
		ps[i], cs[i] = f.join()
		f.spawn(ps[i], cs[i], grid.Vec{X: float32(i * 10)})
		ms[i] = newMirror()
	}
	far, cf := f.join() // beyond the labels' draw distance: not shown them
	f.spawn(far, cf, grid.Vec{X: 250})
	labels := make([]uint32, n)
	for i, p := range ps {
		labels[i] = f.label(LabelParams{Text: "tag", DrawDistance: 100, Pos: grid.Vec{Z: 1}, AttachKind: wire.AttachPlayer, AttachID: uint32(p.ID())})
	}
	f.slowPass()
	for i := range n {
		ms[i].apply(t, cs[i])
	}
	cf.take()
	before := f.w.prims.passes[primLabels]
	f.w.Leave(ps[0], wire.ReasonQuit)
	if got := f.w.prims.passes[primLabels] - before; got != 0 {
		t.Errorf("got %d label reconciles in a leave, want 0", got)
	}
	for i := 1; i < n; i++ {
		ms[i].apply(t, cs[i])
		var want []uint32
		for j := 1; j < n; j++ {
			if j != i {
				want = append(want, labels[j])
			}
		}
		wantIDs(t, "after the leave", ids(ms[i].labels), want...)
	}
	if got := only[*wire.Label3D](cf.take()); len(got) != 0 {
		t.Errorf("the far player got %d labels, want none", len(got))
	}
}

// Labels left to show for lack of room are sent on the next ticks without
// computing the wanted set again; a label deleted or changed meanwhile is
// sent as it is now or not at all.
func TestPendingLabelsOnlyFlush(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	f.advance(tick) // p's first slow pass; the next is a second away
	c.take()
	c.free = SendReserve + 2
	var labels []uint32
	for i := range 8 {
		labels = append(labels, f.label(LabelParams{Pos: grid.Vec{X: float32(i)}}))
	}
	m := newMirror()
	m.apply(t, c)
	if len(m.labels) != 2 {
		t.Fatalf("got %d shown, want 2 (the room)", len(m.labels))
	}
	// The farthest left to show is deleted, the next farthest changes text.
	if err := f.w.DeleteLabel(labels[7]); err != nil {
		t.Fatal(err)
	}
	lp := f.w.Label(labels[6]).Params()
	lp.Text = "changed"
	c.free = SendReserve // the change's reconcile (at once) sends nothing
	if err := f.w.SetLabel(labels[6], lp); err != nil {
		t.Fatal(err)
	}
	passes := f.w.prims.passes[primLabels]
	c.free = 4096
	f.advance(tick) // not p's slow pass: a flush
	if got := f.w.prims.passes[primLabels] - passes; got != 0 {
		t.Errorf("got %d label reconciles on a tick with only ops left, want 0", got)
	}
	m.apply(t, c)
	wantIDs(t, "after the flush", ids(m.labels), labels[:7]...)
	if got := m.labels[labels[6]].TextString(); got != "changed" {
		t.Errorf("got text %q, want %q", got, "changed")
	}
	if rev, _ := p.prims.labels.Shown(labels[6]); rev != f.w.Label(labels[6]).rev {
		t.Errorf("label shown at rev %d, want %d", rev, f.w.Label(labels[6]).rev)
	}
}

// A label attached to an entity reconciles, when made, only the players the
// entity is streamed to: a name label made for each joining player (the
// default gamemode's) concerns nobody yet.
func TestAttachedLabelReconcilesOnlyWhoStreamsItsEntity(t *testing.T) {
	f := newFixture(t, nil)
	const n = 5
	for i := range n {
		p, c := f.join()
		f.spawn(p, c, grid.Vec{X: float32(i * 10)})
	}
	f.slowPass()
	joiner, _ := f.join() // connected, not spawned: streamed to nobody
	before := f.w.prims.passes[primLabels]
	f.label(LabelParams{Text: "name", DrawDistance: 40, AttachKind: wire.AttachPlayer, AttachID: uint32(joiner.ID())})
	if got := f.w.prims.passes[primLabels] - before; got != 0 {
		t.Errorf("got %d label reconciles for a label on a player nobody streams, want 0", got)
	}
	first := f.w.Player(1)
	before = f.w.prims.passes[primLabels]
	f.label(LabelParams{Text: "name", DrawDistance: 40, AttachKind: wire.AttachPlayer, AttachID: uint32(first.ID())})
	if got := f.w.prims.passes[primLabels] - before; got != n-1 {
		t.Errorf("got %d label reconciles for a label on a streamed player, want %d (who streams them)", got, n-1)
	}
}
