package world

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkMoveLists fails the test unless every player's near and far movers
// together are its shown players, each once, and each far list holds only
// the ids of its phase.
func checkMoveLists(t *testing.T, w *World, when string) {
	t.Helper()
	for _, q := range w.players {
		if q == nil {
			continue
		}
		e := &q.ent
		got := slices.Clone(e.nearP)
		for j, far := range e.farP {
			for _, id := range far {
				if int(id%FarMoveEvery) != j {
					t.Fatalf("%s: viewer %d: got id %d in far list %d, want it in %d", when, q.id, id, j, id%FarMoveEvery)
				}
			}
			got = append(got, far...)
		}
		slices.Sort(got)
		want := slices.Clone(e.shownP)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: viewer %d: got movers %v, want the shown %v", when, q.id, got, want)
		}
	}
}

// TestMoveListsFollowShows: a crowd stepping in and out of each other's
// views, some shown again at a new rev (a skin set), some leaving and
// their ids rejoining, has its near and far movers equal to its shown
// players after every tick. A fresh show is appended without a scan
// (placeMove); it fails if a show again were not taken out first (the id
// twice), or a hide left the id in a list.
func TestMoveListsFollowShows(t *testing.T) {
	f := newFixture(t, nil)
	r := rand.New(rand.NewPCG(5, 91))
	var ps []*Player
	var cs []*testConn
	for i := range 24 {
		p, c := f.join()
		f.spawn(p, c, at(float32(i%6)*4, float32(i/6)*4))
		ps, cs = append(ps, p), append(cs, c)
	}
	reshown := 0
	for round := range 80 {
		f.randomSteps(r, ps, cs, []float32{0, 0.5, 3, 20, 60, 200})
		for i, p := range ps {
			switch r.IntN(12) {
			case 0:
				if err := f.w.SetSkin(p, uint16(1+r.IntN(200))); err != nil {
					t.Fatal(err)
				}
				reshown++
			case 1:
				f.w.Leave(p, 0)
				cs[i].take()
				q, c := f.join() // the id just freed
				f.spawn(q, c, p.pos)
				ps[i], cs[i] = q, c
			}
		}
		f.settleAll(ps, cs, tick)
		checkMoveLists(t, f.w, fmt.Sprintf("round %d", round))
	}
	if reshown < 50 {
		t.Fatalf("got %d skins set, want at least 50: the test shows too few again", reshown)
	}
}
