package stream

import (
	"math"
	"math/rand/v2"

	"dlmp/internal/grid"
)

// This file builds the synthetic world of the scale benchmarks: 1,000,000
// objects, 100,000 pickups, 50,000 labels, 10,000 blips and 5,000 gang zones
// over the world bounds, denser in 10 hot spots, and 1000 players either
// uniform over the bounds or 80 % in the hot spots.

const (
	hotSpots      = 10
	hotPlayerR    = 150 // players of a hot spot stand within this radius
	hotEntityR    = 300 // its extra entities lie within this radius
	pickupDist    = 200 // the server-wide pickup draw distance
	players       = 1000
	hotPlayerFrac = 0.8
)

// kindSpec describes one kind of the benchmark world.
type kindSpec struct {
	kind    Kind
	count   int
	hotFrac float64    // share of the entities placed in hot spots
	cell    float32    // grid cell size
	box     [2]float32 // the cache's box: side, height
	radius  func(*rand.Rand) float32
}

var specs = []kindSpec{
	{Objects, 1_000_000, 0.2, 64, [2]float32{16, 8}, func(r *rand.Rand) float32 { return float32(100 * (1 + r.IntN(3))) }},
	{Pickups, 100_000, 0.2, 64, [2]float32{16, 8}, func(*rand.Rand) float32 { return pickupDist }},
	{Labels, 50_000, 0.3, 64, [2]float32{16, 8}, func(r *rand.Rand) float32 { return 10 + 90*r.Float32() }},
	{Blips, 10_000, 0, 512, [2]float32{32, 8}, func(r *rand.Rand) float32 {
		if r.IntN(10) < 7 {
			return float32(math.Inf(1))
		}
		return 300 + 1200*r.Float32()
	}},
	{GangZones, 5_000, 0, 512, [2]float32{32, 8}, func(*rand.Rand) float32 { return float32(math.Inf(1)) }},
}

// kindWorld is one kind: its grid (keys are indices into the slices) and the
// same entities as flat slices for the brute force.
type kindWorld struct {
	spec  kindSpec
	g     *grid.Grid
	cache *grid.Cache // the grid's answers for the kind's limit, by box
	pos   []grid.Vec
	r2    []float32
	rev   []uint32
}

type world struct {
	hot   []grid.Vec
	kinds []*kindWorld
}

func inBounds(v float32) float32 { return max(-grid.Bound, min(grid.Bound, v)) }

func inDisc(rng *rand.Rand, c grid.Vec, r float64) grid.Vec {
	a, d := rng.Float64()*2*math.Pi, r*math.Sqrt(rng.Float64())
	return grid.Vec{X: inBounds(c.X + float32(d*math.Cos(a))), Y: inBounds(c.Y + float32(d*math.Sin(a))), Z: c.Z}
}

func anywhere(rng *rand.Rand) grid.Vec {
	return grid.Vec{X: (rng.Float32()*2 - 1) * grid.Bound, Y: (rng.Float32()*2 - 1) * grid.Bound}
}

func buildWorld(seed uint64) *world {
	rng := rand.New(rand.NewPCG(seed, 1))
	w := &world{}
	for range hotSpots {
		w.hot = append(w.hot, grid.Vec{X: (rng.Float32()*2 - 1) * 3000, Y: (rng.Float32()*2 - 1) * 3000, Z: 10})
	}
	for _, s := range specs {
		k := &kindWorld{spec: s, g: grid.New(s.cell),
			pos: make([]grid.Vec, s.count), r2: make([]float32, s.count), rev: make([]uint32, s.count)}
		for i := range s.count {
			var p grid.Vec
			if rng.Float64() < s.hotFrac {
				p = inDisc(rng, w.hot[rng.IntN(hotSpots)], hotEntityR)
			} else {
				p = anywhere(rng)
			}
			p.Z = rng.Float32() * 60
			r := s.radius(rng)
			k.pos[i], k.r2[i], k.rev[i] = p, r*r, 1
			k.g.SetRev(k.g.Insert(uint32(i), p, r), 1)
		}
		k.g.Compact()
		k.cache = grid.NewCache(k.g, s.kind.Limit(), s.box[0], s.box[1], Mix, maxBoxes)
		w.kinds = append(w.kinds, k)
	}
	return w
}

// placePlayers returns players positions: all uniform, or 80 % in hot spots.
func (w *world) placePlayers(seed uint64, clustered bool) []grid.Vec {
	rng := rand.New(rand.NewPCG(seed, 2))
	ps := make([]grid.Vec, players)
	for i := range ps {
		if clustered && float64(i) < hotPlayerFrac*players {
			ps[i] = inDisc(rng, w.hot[i%hotSpots], hotPlayerR)
		} else {
			ps[i] = anywhere(rng)
			ps[i].Z = 10
		}
	}
	return ps
}

// scratch holds the buffers one reconciling goroutine reuses.
type scratch struct {
	hits   []grid.Hit
	wanted []Want
	ops    []Op
	step   grid.Step
}

// wantedGrid computes a player's wanted set of kind k with the grid.
func (w *world) wantedGrid(k int, p grid.Vec, s *scratch) {
	kw := w.kinds[k]
	if lim := kw.spec.kind.Limit(); lim == Unlimited {
		s.hits = kw.g.Covering(p, s.hits[:0])
	} else {
		s.hits = kw.g.Nearest(p, lim, s.hits[:0])
	}
	s.toWants()
}

// wantedBrute computes the same set by testing every entity of the kind.
func (w *world) wantedBrute(k int, p grid.Vec, s *scratch) {
	kw := w.kinds[k]
	s.hits = s.hits[:0]
	for i, q := range kw.pos {
		if d2 := grid.Dist2(q, p); d2 <= kw.r2[i] {
			s.hits = append(s.hits, grid.Hit{Key: uint32(i), Rev: kw.rev[i], Dist2: d2, Weight: 1})
		}
	}
	if lim := kw.spec.kind.Limit(); lim != Unlimited {
		s.hits = s.hits[:grid.SelectNearest(s.hits, lim)]
	}
	s.toWants()
}

// maxBoxes is how many boxes a kind's cache keeps: enough for the players
// of both layouts.
const maxBoxes = 4096

// reconcileCached is the cached grid pass of one view, as the world would
// run it: the box's sure part (count, weight and fingerprint precomputed)
// and the band's hits at p make the wanted set, which is listed only when
// it is not the shown set. The view keeps its last box (*last), so a
// player still in it skips the box lookup. It leaves the ops in s.ops.
func (w *world) reconcileCached(k int, p grid.Vec, v *View, last **grid.Box, budget int, s *scratch) {
	box, hits := w.kinds[k].cache.QueryNear(*last, p, s.hits[:0])
	*last = box
	s.hits = hits
	if v.UnchangedAnswer(box, hits) {
		s.ops = s.ops[:0]
		return
	}
	s.hits = box.AppendSure(p, s.hits)
	s.toWants()
	s.ops = v.Reconcile(s.wanted, budget, HidesFirst, s.ops[:0])
}

func (s *scratch) toWants() {
	s.wanted = s.wanted[:0]
	for _, h := range s.hits {
		s.wanted = append(s.wanted, Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
	}
}

// cutOf returns the cut of a grid answer of kind k (grid.AllCut for a kind
// without a limit: every covering entity).
func (w *world) cutOf(k int, hits []grid.Hit) uint64 {
	return grid.CutOf(hits, w.kinds[k].spec.kind.Limit()) // Unlimited is grid.NoLimit
}

// skin is the radius (meters) of the ball a view's grid.Shell serves.
const skin = 35

// reconcileDiff is the tick's reconcile of view k of v at v.pos by the
// change from where its set was last computed (grid.Diff, or with skin > 0
// grid.DiffIn and the view's shell; View.PatchStep), or, when that cannot be
// told, by the listed path; it reports whether the change did. It leaves
// the ops in s.ops.
func (w *world) reconcileDiff(k int, v *viewer, skin float32, budget int, s *scratch) bool {
	kw, view := w.kinds[k], v.views[k]
	lim := kw.spec.kind.Limit() // Unlimited is grid.NoLimit
	from := v.at[k]
	v.at[k] = v.pos
	if kw.g.DiffIn(&v.shells[k], skin, from, v.pos, lim, v.cuts[k], Mix, &s.step) {
		var ok bool
		if s.ops, ok = view.PatchStep(&s.step, budget, HidesFirst, s.ops[:0]); ok {
			v.cuts[k] = s.step.Cut
			return true
		}
	}
	w.wantedGrid(k, v.pos, s)
	s.ops = view.Reconcile(s.wanted, budget, HidesFirst, s.ops[:0])
	v.cuts[k] = w.cutOf(k, s.hits)
	return false
}
