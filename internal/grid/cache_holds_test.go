package grid

import (
	"math/rand/v2"
	"testing"
)

// TestCacheHolds: a box answers again while Holds says so, whatever changed
// elsewhere: random moves, rev changes and inserts anywhere in the world
// (near and far), and after each, for every point queried before, when
// Holds reports its box still holds, the answer then (listed before the
// change) equals the oracle's now. It fails if Holds trusted a box whose
// reach changed; and it must both hold across changes that moved the grid's
// version and refuse some (else it tests nothing).
func TestCacheHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := New(64)
	o := &oracle{ents: map[Handle]oracleEnt{}}
	var hs []Handle
	insert := func(p Vec) {
		r := 20 + rng.Float32()*80
		h := g.Insert(uint32(len(hs)), p, r)
		o.ents[h] = oracleEnt{key: uint32(len(hs)), pos: p, r2: r * r, weight: 1}
		hs = append(hs, h)
	}
	spot := func(spread float32) Vec {
		return Vec{rng.Float32()*2*spread - spread, rng.Float32()*2*spread - spread, 0}
	}
	for range 3000 {
		insert(spot(1500))
	}
	c := NewCache(g, 40, 16, 8, testSum, 256)
	type asked struct {
		p    Vec
		box  *Box
		want []Hit
	}
	var pts []asked
	for range 40 {
		p := spot(1400)
		var b *Box
		var ans []Hit
		for range buildAfter + 6 { // built, and its parts
			b, ans = c.Query(p, nil)
		}
		pts = append(pts, asked{p: p, box: b, want: sorted(b.AppendSure(p, ans))})
	}
	held, refused := 0, 0
	for range 400 {
		h := hs[rng.IntN(len(hs))]
		e := o.ents[h]
		switch rng.IntN(3) {
		case 0:
			e.pos = spot(1500)
			g.Move(h, e.pos)
		case 1:
			e.rev++
			g.SetRev(h, e.rev)
		default:
			insert(spot(1500))
			continue
		}
		o.ents[h] = e
		for i := range pts {
			a := &pts[i]
			if !c.Holds(a.box, a.p) {
				refused++
				b, ans := c.Query(a.p, nil) // the grid's or a rebuilt box's answer
				a.box, a.want = b, sorted(b.AppendSure(a.p, ans))
				continue
			}
			held++
			checkHits(t, "an answer Holds kept", a.want, o.nearest(a.p, 40))
		}
	}
	if held == 0 || refused == 0 {
		t.Fatalf("Holds: %d kept, %d refused: want both", held, refused)
	}
	t.Logf("Holds: %d kept, %d refused", held, refused)
}
