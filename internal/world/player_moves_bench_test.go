package world

import (
	"runtime"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/threadcpu"
	"dlmp/internal/wire"
)

// spanCount is a connection that counts the moves it is sent, by spans or
// one by one, and drops everything: the world's part of the fan-out alone.
type spanCount struct {
	nullConn
	moves int
}

func (c *spanCount) SendUnreliable([]byte)                        { c.moves++ }
func (c *spanCount) SendUnreliableSpans(_ []byte, spans []uint64) { c.moves += len(spans) }

// movesWorld is crowdWorld (spots hot spots of 150 m) with every
// connection a spanCount, after 40 ticks of running: the views full.
func movesWorld(b *testing.B, spots int) (*World, []mover, []grid.Vec, []*spanCount, time.Time) {
	return warmCrowd(b, spots, func() *spanCount { return &spanCount{} }, nil)
}

// BenchmarkMovesFanOut is the moves' part of a tick (encodeMoves and every
// viewer's sendPlayerMoves, its splits included) for 1000 players running
// in ten hot spots (~100 shown to each, out of a crowd) and in one (200
// shown, a crowd: the 50 nearest are near), every player with a new sync.
// The players' syncs between the ticks are not measured (the thread's CPU
// clock is read around the moves alone), nor are the views: the shown
// sets stay those of the warm-up while the players run. cpu-us/tick is
// the measure; moves/tick the PlayerMoves sent.
func BenchmarkMovesFanOut(b *testing.B) {
	for _, bc := range []struct {
		name  string
		spots int
	}{{"ten-spots", 10}, {"one-spot", 1}} {
		b.Run(bc.name, func(b *testing.B) {
			w, ms, centers, conns, now := movesWorld(b, bc.spots)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var s wire.PlayerSync
			var spent time.Duration
			moves := 0
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(50 * time.Millisecond)
				crowdSyncs(w, ms, centers, now, &s)
				c0 := threadcpu.Spent()
				w.ents.tick++
				w.encodeMoves()
				sendAllMoves(w)
				spent += threadcpu.Spent() - c0
			}
			for _, c := range conns {
				moves += c.moves
				c.moves = 0
			}
			b.ReportMetric(float64(spent)/float64(time.Microsecond)/float64(b.N), "cpu-us/tick")
			b.ReportMetric(float64(moves)/float64(b.N), "moves/tick")
		})
	}
}

// BenchmarkSplitMoves is one split of every viewer's shown players (1000
// splits an op), as splitMoves does it (one pass over the shown players,
// then the near ones in a crowd) and as it did before decision 0371
// (two-pass: every distance noted, then every shown player sorted by the
// cut), side by side.
func BenchmarkSplitMoves(b *testing.B) {
	for _, bc := range []struct {
		name  string
		spots int
	}{{"ten-spots", 10}, {"one-spot", 1}} {
		w, _, _, _, _ := movesWorld(b, bc.spots)
		for _, impl := range []struct {
			name  string
			split func(*World, *Player)
		}{{"one-pass", (*World).splitMoves}, {"two-pass", (*World).splitMovesTwoPass}} {
			b.Run(bc.name+"/"+impl.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, p := range w.players {
						if p != nil {
							impl.split(w, p)
						}
					}
				}
			})
		}
	}
}

// splitMovesTwoPass is splitMoves as it was before decision 0371 (main
// ce16c0c), kept as BenchmarkSplitMoves' baseline.
func (w *World) splitMovesTwoPass(q *Player) {
	e := &q.ent
	e.nearP = e.nearP[:0]
	for i := range e.farP {
		e.farP[i] = e.farP[i][:0]
	}
	pos := w.ents.moves.pos
	near2 := float32(NearMoveDistance * NearMoveDistance)
	e.nearD, e.nearSel = e.nearD[:0], e.nearSel[:0]
	for _, id := range e.shownP {
		d := grid.Dist2(q.pos, pos[id])
		e.nearD = append(e.nearD, d)
		if d <= near2 {
			e.nearSel = append(e.nearSel, d)
		}
	}
	if len(e.nearSel) > NearMoveLimit {
		near2 = nearCut(e.nearSel, e.nearCut2)
		e.nearCut2 = near2
	} else {
		e.nearCut2 = 0
	}
	for i, id := range e.shownP {
		if e.nearD[i] <= near2 {
			e.nearP = append(e.nearP, id)
		} else {
			e.farP[id%FarMoveEvery] = append(e.farP[id%FarMoveEvery], id)
		}
	}
}

// BenchmarkPlaceMove is a crossing view's fresh shows placed among the
// viewer's movers (decision 0386): a viewer shown 200 players (50 near,
// 150 in the far lists) is shown 60 more and hides them again, as a
// crossing's pass does. fresh: placeMove alone, a show's append; scan: a
// fresh show taken out of the lists first, as before (unplaceMove, which
// finds nothing). Both include the hides' unplaceMove. An op is one view's
// 60 shows and 60 hides.
func BenchmarkPlaceMove(b *testing.B) {
	for _, v := range []struct {
		name string
		scan bool
	}{{"fresh", false}, {"scan", true}} {
		b.Run(v.name, func(b *testing.B) {
			e := playerEnt{farP: make([][]uint16, FarMoveEvery)}
			from := grid.Vec{}
			r, _ := ratesOf(20)
			far := &r.farPh
			at := func(id uint16) grid.Vec { return grid.Vec{X: float32(id%200) * 0.6} } // 50 within the cut
			for id := range uint16(200) {
				e.placeMove(from, id, at(id), far)
			}
			e.nearCut2 = 30 * 30
			b.ReportAllocs()
			for b.Loop() {
				for id := uint16(200); id < 260; id++ {
					if v.scan {
						e.unplaceMove(id, far)
					}
					e.placeMove(from, id, at(id), far)
				}
				for id := uint16(200); id < 260; id++ {
					e.unplaceMove(id, far)
				}
			}
			if n := len(e.nearP) + len(e.farP[0]) + len(e.farP[1]) + len(e.farP[2]) + len(e.farP[3]); n != 200 {
				b.Fatalf("got %d movers after the ops, want 200", n)
			}
		})
	}
}

// sendAllMoves sends every spawned viewer its moves of the tick, as the
// tick's entities pass does (entities.go) without the vehicles' moves.
func sendAllMoves(w *World) {
	for _, p := range w.players {
		if p != nil && !p.gone {
			w.sendPlayerMoves(p)
		}
	}
}
