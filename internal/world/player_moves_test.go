package world

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

// TestNearCut: whatever the last split's cut (none, below, at or above the
// answer, past every distance), nearCut returns the NearMoveLimit-th
// smallest distance, ties included.
func TestNearCut(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := NearMoveLimit + 1; n <= 260; n += 13 {
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(r.IntN(400)) // ties
		}
		sorted := slices.Clone(d)
		slices.Sort(sorted)
		want := sorted[NearMoveLimit-1]
		lasts := []float32{0, sorted[0] - 1, sorted[n-1] + 1, want, want - 0.5, want + 0.5}
		for _, i := range []int{0, NearMoveLimit - 3, NearMoveLimit - 2, NearMoveLimit, NearMoveLimit + 1, n / 2, n - 1} {
			lasts = append(lasts, sorted[min(i, n-1)])
		}
		for _, last := range lasts {
			if got := nearCut(slices.Clone(d), last); got != want {
				t.Fatalf("n %d, last cut %v: got %v, want %v", n, last, got, want)
			}
		}
	}
}

// TestFewSmallest: the j-th smallest for every j it takes, ties included.
func TestFewSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= 40; n += 3 {
		d := make([]float32, n)
		for i := range d {
			d[i] = float32(r.IntN(20))
		}
		sorted := slices.Clone(d)
		slices.Sort(sorted)
		for j := range min(n, len(few{})) {
			if got := fewSmallest(d, j); got != sorted[j] {
				t.Fatalf("n %d: fewSmallest(j=%d) = %v, want %v", n, j, got, sorted[j])
			}
		}
	}
}

// recordConn records the unreliable packets sent to it, in order, and the
// calls that sent them.
type recordConn struct {
	*testConn
	got   []string
	calls int
}

func (c *recordConn) SendUnreliable(msg []byte) { c.got = append(c.got, string(msg)); c.calls++ }

// spanConn is a recordConn that takes runs of spans.
type spanConn struct{ recordConn }

func (c *spanConn) SendUnreliableSpans(buf []byte, spans []uint64) {
	for _, sp := range spans {
		c.got = append(c.got, string(buf[uint32(sp):uint32(sp)+uint32(sp>>32)]))
	}
	c.calls++
}

// TestSendSpans: a connection that takes spans is sent a viewer's moves in
// one call; another one by one; the same packets in the same order either
// way.
func TestSendSpans(t *testing.T) {
	buf := []byte("xabbcy")
	spans := []uint64{moveRef{off: 1, n: 1}.span(), moveRef{off: 2, n: 2, near: true}.span(), moveRef{off: 4, n: 1}.span()}
	want := []string{"a", "bb", "c"}
	one := &recordConn{testConn: newConn(t)}
	sendSpans(one, buf, spans)
	if !slices.Equal(one.got, want) || one.calls != 3 {
		t.Errorf("plain conn: got %q in %d calls, want %q in 3", one.got, one.calls, want)
	}
	r := &spanConn{recordConn{testConn: newConn(t)}}
	sendSpans(r, buf, spans)
	if !slices.Equal(r.got, want) || r.calls != 1 {
		t.Errorf("span conn: got %q in %d calls, want %q in 1", r.got, r.calls, want)
	}
}

// TestFarPlayerGetsItsFirstMoveWithTheShow: a player shown beyond
// NearMoveDistance (a far one) that moves on the tick of its show, which
// is not its far tick, is sent its first PlayerMove on that tick all the
// same: the client draws a player only from its first PlayerMove.
func TestFarPlayerGetsItsFirstMoveWithTheShow(t *testing.T) {
	f := newFixture(t, nil)
	viewer, vc, mover, mc := viewerThenMover(f, false)
	f.spawn(mover, mc.testConn, at(NearMoveDistance+40, 0))
	f.sync(mover, mc.testConn, at(NearMoveDistance+40, 0.3), 1)
	vc.takeMoves()
	f.advance(tick)
	if _, ok := viewer.ent.players.Shown(uint32(mover.ID())); !ok {
		t.Fatal("the mover is not shown to the viewer")
	}
	if n := vc.movesOf(mover.ID()); n != 1 {
		t.Fatalf("got %d PlayerMoves of the far mover on the tick of its show, want 1", n)
	}
}

// viewerThenMover joins a viewer spawned at the origin, lets its first
// periodic split pass, joins a mover (not spawned) and advances until the
// next tick is not the viewer's split tick (byViewer) or the mover's far
// tick: (tick + id) % FarMoveEvery ≠ 0.
func viewerThenMover(f *fixture, byViewer bool) (viewer *Player, vc *entConn, mover *Player, mc *entConn) {
	viewer, vc = f.joinE()
	f.spawn(viewer, vc.testConn, at(0, 0))
	for range FarMoveEvery {
		f.advance(tick)
	}
	mover, mc = f.joinE()
	id := mover.ID()
	if byViewer {
		id = viewer.ID()
	}
	for (f.w.ents.tick+1+uint32(id))%FarMoveEvery == 0 {
		f.advance(tick)
	}
	return viewer, vc, mover, mc
}

// movesOf takes the unreliable packets sent to c and counts the
// PlayerMoves of player id among them.
func (c *entConn) movesOf(id uint16) int {
	n := 0
	for _, p := range c.takeMoves() {
		if m, ok := p.(*wire.PlayerMove); ok && m.PlayerID == id {
			n++
		}
	}
	return n
}

// TestCrowdSplitsEveryCrowdSplitEvery: in a crowd the viewer's near and
// far movers are split again every CrowdSplitEvery ticks (decision 0290),
// not every FarMoveEvery: the nearest mover that steps back past the cut
// keeps its every-tick moves until the viewer's next crowd split, and
// moves at the far rate from it.
func TestCrowdSplitsEveryCrowdSplitEvery(t *testing.T) {
	f := newFixture(t, nil)
	viewer, vc := f.joinE()
	f.spawn(viewer, vc.testConn, at(0, 0))
	ms := f.lineCrowd()      // every one within NearMoveDistance
	for range FarMoveEvery { // a first split finds the crowd
		f.advance(tick)
	}
	if viewer.ent.nearCut2 == 0 {
		t.Fatal("the viewer's split found no crowd")
	}
	for (f.w.ents.tick+uint32(viewer.ID()))%CrowdSplitEvery != 0 { // up to a crowd split
		f.advance(tick)
	}
	ms[0].at = NearMoveDistance - 10 // the nearest steps back, past the cut
	step := func(i int) int {
		for _, m := range ms {
			f.sync(m.p, m.c, at(m.at, float32(i+1)*0.01), 1)
		}
		vc.takeMoves()
		f.advance(tick)
		return vc.movesOf(ms[0].p.ID())
	}
	for i := range CrowdSplitEvery - 1 {
		if n := step(i); n != 1 {
			t.Fatalf("tick %d after the crowd split: got %d moves of the mover that stepped back, want 1 (near until the next crowd split)", i+1, n)
		}
	}
	got := 0
	for i := range CrowdSplitEvery {
		got += step(CrowdSplitEvery + i)
	}
	if want := CrowdSplitEvery / FarMoveEvery; got != want {
		t.Fatalf("got %d moves of the mover that stepped back in the %d ticks from the next crowd split, want %d (far)", got, CrowdSplitEvery, want)
	}
}

// TestSplitsEveryFarTickOutOfACrowd: out of a crowd the viewer splits
// every FarMoveEvery ticks: a near mover that steps past
// NearMoveDistance moves at the far rate within FarMoveEvery ticks.
func TestSplitsEveryFarTickOutOfACrowd(t *testing.T) {
	f := newFixture(t, nil)
	viewer, vc, mover, mc := viewerThenMover(f, true) // the next tick is not the viewer's split
	f.spawn(mover, mc.testConn, at(NearMoveDistance-0.2, 0))
	f.advance(tick) // shown, near
	if !slices.Contains(viewer.ent.nearP, mover.ID()) {
		t.Fatal("the mover within NearMoveDistance is not near")
	}
	for i := range FarMoveEvery { // one step past NearMoveDistance, then on the spot
		f.sync(mover, mc.testConn, at(NearMoveDistance+0.4, float32(i)*0.01), 1)
		f.advance(tick)
	}
	if viewer.ent.nearCut2 != 0 {
		t.Fatal("the viewer's split found a crowd of one")
	}
	vc.takeMoves()
	got := 0
	for i := range 2 * FarMoveEvery {
		f.sync(mover, mc.testConn, at(NearMoveDistance+0.4, float32(i+FarMoveEvery)*0.01), 1)
		f.advance(tick)
		got += vc.movesOf(mover.ID())
	}
	if want := 2; got != want {
		t.Fatalf("got %d moves in %d ticks of the mover past NearMoveDistance, want %d (far)", got, 2*FarMoveEvery, want)
	}
}

// spanEntConn is an entConn that takes a viewer's moves as one run of
// spans of the shared buffer, as transport.Session does.
type spanEntConn struct {
	*entConn
	runs int
}

func (c *spanEntConn) SendUnreliableSpans(buf []byte, spans []uint64) {
	c.runs++
	for _, sp := range spans {
		off, n := uint32(sp), uint32(sp>>32)
		c.entConn.SendUnreliable(buf[off : off+n : off+n])
	}
}

// TestSpansCarryTheSameMoves: a viewer whose connection takes spans gets
// the same PlayerMoves, tick by tick, as one at the same place whose
// connection takes them one by one, in a crowd where both split (near
// and far movers), through the world's own tick.
func TestSpansCarryTheSameMoves(t *testing.T) {
	f := newFixture(t, nil)
	one, oc := f.joinE()
	sc := &spanEntConn{entConn: &entConn{testConn: newConn(t)}}
	var hello wire.ServerHello
	spans, ok := f.w.Join(sc, &hello)
	if !ok {
		t.Fatal("Join: server full")
	}
	f.spawn(one, oc.testConn, at(0, 0))
	f.spawn(spans, sc.testConn, at(0, 0.1))
	ms := f.lineCrowd()             // every one within NearMoveDistance
	for range 2 * CrowdSplitEvery { // both viewers' splits find the crowd
		f.advance(tick)
	}
	key := func(ps []wire.Packet) []string {
		var k []string
		for _, p := range ps {
			if m, ok := p.(*wire.PlayerMove); ok {
				k = append(k, fmt.Sprintf("%d@%d:%v,%v", m.PlayerID, m.Seq, m.X, m.Y))
			}
		}
		slices.Sort(k)
		return k
	}
	oc.takeMoves()
	sc.takeMoves()
	runs, total := sc.runs, 0
	for i := range CrowdSplitEvery {
		for _, m := range ms {
			f.sync(m.p, m.c, at(m.at, float32(i+1)*0.01), 1)
		}
		f.advance(tick)
		got, want := key(sc.takeMoves()), key(oc.takeMoves())
		if !slices.Equal(got, want) {
			t.Fatalf("tick %d: the spans' viewer got %d moves %v, want the one-by-one viewer's %d %v", i+1, len(got), got, len(want), want)
		}
		total += len(got)
	}
	if n := sc.runs - runs; n != CrowdSplitEvery {
		t.Errorf("got %d runs of spans in %d ticks, want one a tick", n, CrowdSplitEvery)
	}
	// The other viewer, standing still, is the nearest of the crowd: 49
	// movers are near (every tick), 11 far (every FarMoveEvery ticks).
	if want := (NearMoveLimit-1)*CrowdSplitEvery + 11*CrowdSplitEvery/FarMoveEvery; total != want {
		t.Errorf("got %d moves in %d ticks, want %d (the near every tick, the far every %d)", total, CrowdSplitEvery, want, FarMoveEvery)
	}
}
