package world

import (
	"math"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

// A crowd where nobody crosses anyone's stream distance: a player's steps
// make only its own view of players compute again.
func TestPlayerStepsInACrowdComputeOnlyTheirOwnView(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	b, bc := f.joinE()
	c, cc := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(b, bc.testConn, at(100, 0))
	f.spawn(c, cc.testConn, at(0, 100))
	f.advance(tick)
	ac.take()

	before := f.w.ents.passes[0]
	f.walk(b, bc.testConn, at(100+2*EntityRequery, 0))
	f.advance(tick)
	if got := f.w.ents.passes[0] - before; got != 1 {
		t.Errorf("got %d views of players computed after b's step, want 1 (b's own)", got)
	}
	if shows, hides := playerShows(t, ac.take()); len(shows)+len(hides) != 0 {
		t.Errorf("a got shows %v and hides %v, want none", showPlayerIDs(shows), hides)
	}

	// Across the stream distance (with a shown player's margin) it still
	// counts, both ways.
	f.walk(b, bc.testConn, at(PlayerStreamDistance+PlayerHoldMargin+EntityRequery+1, 0))
	f.advance(tick)
	if _, hides := playerShows(t, ac.take()); !slices.Equal(hides, []uint16{b.ID()}) {
		t.Fatalf("got hides %v, want b's as b left the distance", hides)
	}
	f.walk(b, bc.testConn, at(PlayerStreamDistance-EntityRequery-1, 0))
	f.advance(tick)
	if shows, _ := playerShows(t, ac.take()); !slices.Equal(showPlayerIDs(shows), []uint16{b.ID()}) {
		t.Fatalf("got shows %v, want b again", showPlayerIDs(shows))
	}
}

// A full view (more than PlayerLimit players in reach) follows the ranking
// of the hold rule (players_hold.go): a player who comes nearer than the
// farthest shown by the hold takes its place, one who goes farther than
// the nearest left out by the hold gives its place to it.
func TestFullPlayerViewFollowsTheNearest(t *testing.T) {
	f := newFixture(t, nil)
	a, ac := f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	type pc struct {
		p *Player
		c *testConn
	}
	var ps []pc
	for i := range PlayerLimit + 1 { // ids 1..=201 at x 1..=201
		q, qc := f.join()
		f.spawn(q, qc, at(float32(i+1), 0))
		ps = append(ps, pc{q, qc})
	}
	f.advanceViews(PlayerLimit + 2) // every view may be due: the budget spreads them
	if shows, _ := playerShows(t, ac.take()); len(shows) != PlayerLimit {
		t.Fatalf("got %d players shown, want the limit %d", len(shows), PlayerLimit)
	}
	last, farthest, nearest := ps[PlayerLimit], ps[PlayerLimit-1], ps[0]

	// The one left out comes nearest: shown, the farthest shown hidden.
	f.walk(last.p, last.c, at(0, 0.5))
	f.advanceViews(PlayerLimit + 2) // every view may be due: the budget spreads them
	shows, hides := playerShows(t, ac.take())
	if !slices.Equal(showPlayerIDs(shows), []uint16{last.p.ID()}) || !slices.Equal(hides, []uint16{farthest.p.ID()}) {
		t.Fatalf("got shows %v hides %v, want show %d hide %d", showPlayerIDs(shows), hides, last.p.ID(), farthest.p.ID())
	}

	// The nearest walks beyond everyone, past the hold (farther than the
	// one left out, at 200 m, by more than 1/√PlayerHoldFactor): hidden,
	// the one hidden comes back.
	f.walk(nearest.p, nearest.c, at(float32(PlayerLimit/math.Sqrt(PlayerHoldFactor))+10, 0))
	f.advanceViews(PlayerLimit + 2) // every view may be due: the budget spreads them
	shows, hides = playerShows(t, ac.take())
	if !slices.Equal(showPlayerIDs(shows), []uint16{farthest.p.ID()}) || !slices.Equal(hides, []uint16{nearest.p.ID()}) {
		t.Fatalf("got shows %v hides %v, want show %d hide %d", showPlayerIDs(shows), hides, farthest.p.ID(), nearest.p.ID())
	}
}

// A viewer who comes near a player that just stopped still gets the state
// it stopped in, whatever the tick it stopped on.
func TestStoppedPlayerReachesAViewerWhoComesNear(t *testing.T) {
	for phase := range FarMoveEvery {
		f := newFixture(t, nil)
		mover, mc := f.joinE()
		viewer, vc := f.joinE()
		f.spawn(mover, mc.testConn, at(0, 0))
		f.spawn(viewer, vc.testConn, at(NearMoveDistance+10, 0))
		f.advance(tick)
		var x float32
		for range 2*FarMoveEvery + phase {
			x += 0.3
			f.sync(mover, mc.testConn, at(x, 0), 1)
			f.advance(tick)
		}
		f.walk(viewer, vc.testConn, at(10, 0))
		for range FarMoveEvery {
			f.advance(tick)
		}
		var last float32
		for _, p := range vc.takeMoves() {
			if m, ok := p.(*wire.PlayerMove); ok && m.PlayerID == mover.ID() {
				last = m.X
			}
		}
		if last != x {
			t.Errorf("phase %d: the viewer's last mover x = %v, want the final %v", phase, last, x)
		}
	}
}
