package grid

import "math"

// Shell is what one moving query point (a player's view of one kind) keeps
// of a grid between steps, so that while the point stays within a ball the
// change of its answer is told from a few hundred entities instead of a scan
// of every cell in reach (a Verlet list, in molecular dynamics' terms):
//
//   - the inner part: entities covering every point of the ball, kept as
//     their count, weight and fingerprint only;
//   - the band: entities covering some points of the ball but not all,
//     kept as in a cell (positions contiguous).
//
// It serves answers the limit does not cut (every entity covering the
// point): [Grid.Covering], and [Grid.Nearest] while the covering entities
// weigh at most the limit. For a cut answer it keeps the totals of the last
// one a step told (decision 0265). The zero value is empty. See
// [Grid.DiffIn].
type Shell struct {
	c    Vec     // the ball's center
	r2   float32 // its radius, squared
	n    int     // the inner part: count, weight and fingerprint
	w    uint64
	sum  uint64
	band cell
	tmp  []int32 // addCell's scratch

	// Validity: the grid's version when built, the cells read.
	built              uint64
	cx0, cy0, cx1, cy1 int
	ok                 bool

	last held // the cut answer the last step told
}

// Band returns the number of entities a step of the shell scans.
func (sh *Shell) Band() int { return len(sh.band.p) }

// holds reports whether p is in the ball.
func (sh *Shell) holds(p Vec) bool { return Dist2(sh.c, p) <= sh.r2 }

// DiffIn is [Grid.Diff] for a query point that keeps sh between steps
// (one Shell per point, for one limit and sum function). When the answer at
// from is every entity covering from (cut is [AllCut]), from and to are
// within the ball of radius skin the shell was built for and nothing in the
// grid changed where the shell read it, the step is told from the shell's
// band alone. Otherwise it is Diff, whose scan fills the shell when it
// reads every entity covering to and the limit cuts nothing there: for a
// ball centered ahead of to along the step (decision 0358), so that a
// point that keeps its way crosses the ball before the next build (the
// scan reaches the ball's cells for it). A step longer than skin goes to
// Diff too (decision 0211).
//
// A cut answer a step told is held by sh (its point, cut, count, weight and
// fingerprint): when the next step starts from it (from and cut the same)
// and no cell within the cut's distance of from changed since, the step's
// Was* are the held ones and its scan does not read the entities nearer
// than the band that cover both points (decision 0265). With skin ≤ 0 only
// that is kept (no ball: a kind whose answers are always cut).
//
// The result is Diff's, exactly (the inner part's bound is padded for the
// rounding of float32 distances). A Shell serves one grid and one sum
// function (its held answer keeps the sum it was told with).
func (g *Grid) DiffIn(sh *Shell, skin float32, from, to Vec, limit int, cut uint64, sum func(key, rev uint32) uint64, s *Step) bool {
	if cut == AllCut && limit >= 1 && skin > 0 && Dist2(from, to) <= skin*skin {
		if sh.ok && sh.holds(from) && sh.holds(to) && g.unchanged(sh.built, sh.cx0, sh.cy0, sh.cx1, sh.cy1) &&
			g.shellStep(sh, from, to, limit, sum, s) {
			sh.last.ok = false
			return true
		}
	}
	// Diff, which fills the shell ahead of to as it scans, if nothing is cut
	// there (and skin > 0), and starts from the answer sh holds if it can.
	return g.diff(from, to, limit, cut, sum, s, sh, skin, nil)
}

// shellStep tells the step from the shell's band, or reports false when the
// limit cuts the answer at to.
func (g *Grid) shellStep(sh *Shell, from, to Vec, limit int, sum func(key, rev uint32) uint64, s *Step) bool {
	s.Enter, s.Leave = s.Enter[:0], s.Leave[:0]
	s.WasN, s.WasWeight, s.WasSum, s.Held = sh.n, sh.w, sh.sum, false
	wT := sh.w
	ps, ms := sh.band.p, sh.band.m[:len(sh.band.p)]
	for i := range ps {
		e := &ps[i]
		dt, df := e.dists(to, from)
		covT, covF := dt <= e.r2, df <= e.r2
		if !covT && !covF {
			continue
		}
		m := &ms[i]
		if covT {
			wT += uint64(m.weight)
		}
		if covF {
			s.WasN++
			s.WasWeight += uint64(m.weight)
			if sum != nil {
				s.WasSum += sum(m.key, m.rev)
			}
		}
		switch {
		case covT && !covF:
			s.Enter = append(s.Enter, Hit{Key: m.key, Rev: m.rev, Dist2: dt, Weight: m.weight})
		case covF && !covT:
			s.Leave = append(s.Leave, Hit{Key: m.key, Rev: m.rev, Dist2: dt, Weight: m.weight})
		}
	}
	if limit != NoLimit && wT > uint64(limit) {
		return false // cut at to: not a shell's answer
	}
	s.Cut, s.Shell = AllCut, true
	s.Total(sum)
	return true
}

// start empties sh for the ball of radius skin around c and sets the cells
// it reads; it returns the ball's radius as the bounds use it (its points
// are within Dist2 ≤ skin² of c: a true distance of skin·(1+ε)).
func (sh *Shell) start(g *Grid, c Vec, skin float32) float32 {
	sh.c, sh.r2 = c, skin*skin
	sh.n, sh.w, sh.sum = 0, 0, 0
	sh.band.p, sh.band.m = sh.band.p[:0], sh.band.m[:0]
	sh.built = g.ver
	ball := skin*(1+relSlack) + absSlack
	r := float32(math.Sqrt(float64(g.maxR2))) + ball + slack
	sh.cx0, sh.cx1 = g.axis(c.X-r), g.axis(c.X+r)
	sh.cy0, sh.cy1 = g.axis(c.Y-r), g.axis(c.Y+r)
	return ball
}

// reaches reports whether a cell at squared 2D distance gap2 from the
// ball's center, whose entities' radii are at most √maxR2, can hold an
// entity covering a point of the ball.
func (sh *Shell) reaches(gap2, ball, maxR2 float32) bool {
	near := max(float32(math.Sqrt(float64(gap2)))-ball, 0)
	return near*near <= maxR2*(1+relSlack)
}

// addCell sorts the entities of cell c into the inner part or the band,
// or leaves them out (they cover no point of the ball). The bounds are
// padded by relSlack for the rounding of float32 distances and squares
// (relative errors below 1e-6).
//
// Like cover, it is branchless: the index of every entity is written to
// both scratch lists and each list's length advances by the entity's test,
// computed on the float bits (squared distances are non-negative, so they
// order as their bits); the meta of entities left out is never read.
func (sh *Shell) addCell(c *cell, ball float32, sum func(key, rev uint32) uint64) {
	ps := c.p
	if cap(sh.tmp) < 2*len(ps) {
		sh.tmp = make([]int32, 2*len(ps))
	}
	inner, band := sh.tmp[:len(ps)], sh.tmp[len(ps):2*len(ps)]
	ni, nb := 0, 0
	cx, cy, cz := sh.c.X, sh.c.Y, sh.c.Z
	if c.minR2 == c.maxR2 && len(ps) > 0 {
		// One radius for the whole cell (the bounds meet: a pickup grid's,
		// most objects'): the thresholds below, computed once.
		r := float32(math.Sqrt(float64(ps[0].r2)))
		in, out := max(r-ball, 0), r+ball
		inB := uint64(math.Float32bits(in * in * (1 - 2*relSlack)))
		outB := uint64(math.Float32bits(out * out * (1 + 2*relSlack)))
		for i := range ps {
			e := &ps[i]
			dx, dy, dz := e.x-cx, e.y-cy, e.z-cz
			d := uint64(math.Float32bits(dx*dx + dy*dy + dz*dz))
			isIn := int((d - inB) >> 63)
			isNear := int((outB-d)>>63 ^ 1)
			inner[ni], band[nb] = int32(i), int32(i)
			ni += isIn
			nb += isNear &^ isIn
		}
		sh.keep(c, inner[:ni], band[:nb], sum)
		return
	}
	for i := range ps {
		e := &ps[i]
		dx, dy, dz := e.x-cx, e.y-cy, e.z-cz
		d := uint64(math.Float32bits(dx*dx + dy*dy + dz*dz))
		r := float32(math.Sqrt(float64(e.r2)))
		in := max(r-ball, 0)
		out := r + ball
		// inside: d2 < in²(1−2e-5), strictly, so that in = 0 never holds;
		// near: d2 ≤ out²(1+2e-5).
		isIn := int((d - uint64(math.Float32bits(in*in*(1-2*relSlack)))) >> 63)
		isNear := int((uint64(math.Float32bits(out*out*(1+2*relSlack)))-d)>>63 ^ 1)
		inner[ni], band[nb] = int32(i), int32(i)
		ni += isIn
		nb += isNear &^ isIn
	}
	sh.keep(c, inner[:ni], band[:nb], sum)
}

// keep adds the entities of cell c at indexes inner to the shell's inner
// part, those at band to its band.
func (sh *Shell) keep(c *cell, inner, band []int32, sum func(key, rev uint32) uint64) {
	ps, ms := c.p, c.m[:len(c.p)]
	for _, i := range inner {
		m := &ms[i]
		sh.n++
		sh.w += uint64(m.weight)
		if sum != nil {
			sh.sum += sum(m.key, m.rev)
		}
	}
	for _, i := range band {
		sh.band.p, sh.band.m = append(sh.band.p, ps[i]), append(sh.band.m, ms[i])
	}
}

// shellLead is how far ahead of its point a shell's ball is centered, as a
// share of its skin (decision 0358). Below 1, so that the point itself
// stays in the ball with room for rounding. A variable only so that
// BenchmarkShellLead can measure the ball centered on the point (0) side
// by side.
var shellLead float32 = 0.9

// ahead returns the center of the ball a step from from to to fills its
// shell for: shellLead·skin past to along the step, where a point that
// keeps its way goes next, so that it crosses the ball's diameter and not
// only its radius before the shell is built again; to itself for a step
// of no length.
func ahead(from, to Vec, skin float32) Vec {
	dx, dy, dz := to.X-from.X, to.Y-from.Y, to.Z-from.Z
	d := float32(math.Sqrt(float64(dx*dx + dy*dy + dz*dz)))
	if !(d > 0) {
		return to
	}
	k := shellLead * skin / d
	return Vec{to.X + dx*k, to.Y + dy*k, to.Z + dz*k}
}
