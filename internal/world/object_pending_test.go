package world

import (
	"math"
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// Objects left to show for lack of room are sent on the next ticks to a
// player who stands (the view is not due), though the view is asked for
// ops left only after a computation that left some (objectCut.left), and
// the flag is down once they are sent.
func TestPendingObjectsSentOnTheNextTick(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, at(0, 0))
	f.advance(tick)
	c.take()
	var ids []uint32
	for i := range 6 {
		ids = append(ids, f.object(ObjectParams{Model: 1337, Pos: at(float32(3*i), 5)}))
	}
	// A move past the re-query with room for 2 ops: the view is due, its
	// reconcile leaves the rest.
	c.free = SendReserve + 2
	f.sync(p, c, at(ObjectRequery+1, 0), 1)
	f.advance(tick)
	if p.ent.objects.Pending() == 0 {
		t.Fatal("no object ops left: the test needs some")
	}
	if !p.objCut.left {
		t.Fatal("ops left, not flagged")
	}
	c.free = 4096
	for range 2 {
		f.advance(tick)
	}
	for _, id := range ids {
		if _, ok := p.ent.objects.Shown(id); !ok {
			t.Errorf("object %d not shown two ticks after the room came back", id)
		}
	}
	if p.objCut.left {
		t.Error("ops left still flagged after they were sent")
	}
}

// TestObjectOpsLeftAreFlagged: walkers through a dense world with little
// room in their send queues (steps, band steps and reconciles all leave
// ops): after every tick, a view with ops left is flagged (objectCut.left);
// the test fails if no step, or no reconcile, left any. Once the room comes
// back, standing players' views end equal to a recompute.
func TestObjectOpsLeftAreFlagged(t *testing.T) {
	f, r, near := seeded(t, 1, 31)
	for range 2500 {
		f.object(ObjectParams{Pos: near(150), Distance: float32(50 + r.IntN(250))})
	}
	type walker struct {
		p        *Player
		c        *testConn
		pos, dir grid.Vec
	}
	var ws []*walker
	for i := range 8 {
		p, c := f.join()
		pos := at(float32(i*70-250), float32(i%3*60-60))
		f.spawnAcked(p, c, pos)
		a := r.Float64() * 6.28
		ws = append(ws, &walker{p: p, c: c, pos: pos, dir: grid.Vec{X: float32(math.Cos(a)), Y: float32(math.Sin(a))}})
	}
	f.advance(tick)
	var leftByStep, leftByOther int
	for round := range 120 {
		for _, m := range ws {
			if m.pos.X*m.dir.X+m.pos.Y*m.dir.Y > 0 && m.pos.X*m.pos.X+m.pos.Y*m.pos.Y > 350*350 {
				m.dir = grid.Vec{X: -m.dir.X, Y: -m.dir.Y}
			}
			d := float32(2 + r.IntN(12))
			m.pos = grid.Vec{X: m.pos.X + d*m.dir.X, Y: m.pos.Y + d*m.dir.Y, Z: m.pos.Z}
			f.sync(m.p, m.c, m.pos, 1)
			m.c.free = SendReserve + r.IntN(3)*40 // none, some or much room
		}
		st0 := f.w.caches.stepped[cacheObjects]
		f.advance(tick)
		stepped := f.w.caches.stepped[cacheObjects] > st0
		for i, m := range ws {
			left := m.p.ent.objects.Pending() > 0
			if left && !m.p.objCut.left {
				t.Fatalf("round %d player %d: %d object ops left, not flagged", round, i, m.p.ent.objects.Pending())
			}
			switch {
			case left && stepped:
				leftByStep++
			case left:
				leftByOther++
			}
			m.c.take()
			m.c.ackAll()
		}
	}
	if leftByStep == 0 || leftByOther == 0 {
		t.Fatalf("views with ops left: %d on ticks with a step, %d on others; the test needs both", leftByStep, leftByOther)
	}
	for _, m := range ws {
		m.c.free = 4096
	}
	for range 3 {
		f.advance(tick)
	}
	for i, m := range ws {
		q := m.p
		if q.objCut.left || q.ent.objects.Pending() > 0 {
			t.Errorf("player %d: ops left (%d, flagged %v) three ticks after the room came back", i, q.ent.objects.Pending(), q.objCut.left)
		}
		sc, c := q.objCut.scope, q.objCut.at
		wants := brute(f.w, func() []stream.Want { w, _ := f.w.objectWants(q, sc, c, nil, nil); return w })
		sameViewOf(t, 1, -1, i, q.ent.objects, wants)
	}
}

// TestObjectBandOpsLeftAreFlagged: idle players (a jitter within their
// box's band, the view computed every tick) with little room, while objects
// move around them: a band step (objectBandStep) that leaves ops flags the
// view as the other paths do. The test fails if no band step left any.
func TestObjectBandOpsLeftAreFlagged(t *testing.T) {
	f, r, near := seeded(t, 2, 17)
	var ids []uint32
	for range 2000 {
		ids = append(ids, f.object(ObjectParams{Pos: near(150), Distance: float32(20 + r.IntN(200))}))
	}
	type idler struct {
		p   *Player
		c   *testConn
		pos grid.Vec
	}
	var ps []*idler
	for i := range 8 {
		p, c := f.join()
		pos := at(float32(i*50-200), float32(i%3*40-40))
		f.spawnAcked(p, c, pos)
		ps = append(ps, &idler{p: p, c: c, pos: pos})
	}
	f.advance(tick)
	leftByBand := 0
	for round := range 300 {
		for range r.IntN(3) {
			if o := f.w.Object(ids[r.IntN(len(ids))]); o != nil && o.kind == 0 {
				_ = f.w.SetObjectPose(o.id, near(150), Rot{})
			}
		}
		tight := round%3 == 2 // room for one op at most
		for _, m := range ps {
			m.pos = grid.Vec{X: m.pos.X + float32(r.IntN(21)-10)/20, Y: m.pos.Y + float32(r.IntN(21)-10)/20, Z: m.pos.Z}
			f.sync(m.p, m.c, m.pos, 1)
			m.p.ent.objectAt.Invalidate()
			m.c.free = 4096
			if tight {
				m.c.free = SendReserve + r.IntN(2)
			}
		}
		band0 := f.w.caches.bandSteps
		f.advance(tick)
		for i, m := range ps {
			left := m.p.ent.objects.Pending() > 0
			if left && !m.p.objCut.left {
				t.Fatalf("round %d player %d: %d object ops left, not flagged", round, i, m.p.ent.objects.Pending())
			}
			if left && f.w.caches.bandSteps > band0 {
				leftByBand++
			}
			m.c.take()
			m.c.ackAll()
		}
	}
	if leftByBand == 0 {
		t.Fatalf("no band step left ops (%d band steps, %d refused): the test needs some", f.w.caches.bandSteps, f.w.caches.bandRefused)
	}
}
