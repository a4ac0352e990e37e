package grid

import "math"

// held is the answer a cut step told last (decision 0265): its point, its
// cut, its count, weight and fingerprint, and the grid's version when it was
// told. The answer is a function of the entities within the cut's distance
// of its point; while no cell in that reach changed since (the box caches'
// change stamps), those totals are the ones a scan of the grid would count
// now, and the next step from that point with that cut needs no scan of the
// entities nearer than its band that stay in both answers.
type held struct {
	g      *Grid
	at     Vec
	cut    uint64
	n      int
	w, sum uint64
	ver    uint64
	ok     bool
}

// heldFor reports whether h is the answer at from with cut on g and still
// holds: no cell within the cut's distance of from changed since it was
// told. Only cut answers are held (an uncut one is a shell's).
func (g *Grid) heldFor(h *held, from Vec, limit int, cut uint64) bool {
	if !h.ok || h.g != g || h.at != from || h.cut != cut || limit == NoLimit || cut == AllCut || cut == 0 {
		return false
	}
	// The old answer's entities are within √(cut's distance bits) of from
	// (their Rank is below cut); their cells are within that much in 2D.
	d := float32(math.Sqrt(float64(math.Float32frombits(uint32(cut >> 32)))))
	r := d*(1+relSlack) + absSlack + slack
	return g.unchanged(h.ver, g.axis(from.X-r), g.axis(from.Y-r), g.axis(from.X+r), g.axis(from.Y+r))
}

// hold records the answer s told at to in h, with sum the step's sum
// function (the totals of the old answer less what left, plus what
// entered).
func (g *Grid) hold(h *held, to Vec, s *Step) {
	*h = held{g: g, at: to, cut: s.Cut, n: s.N, w: s.Weight, sum: s.Sum, ver: g.ver, ok: true}
}
