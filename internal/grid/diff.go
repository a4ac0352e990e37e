package grid

import (
	"math"
	"math/bits"
)

// Step is how the answer of [Grid.Nearest] (of [Grid.Covering] for
// [NoLimit]) changes when its point moves, as computed by [Grid.Diff] from
// one scan of the entities near both points, without listing the answer.
// Its slices are reused by the next Diff.
type Step struct {
	Enter []Hit  // in the answer at the new point, not at the old one (hits at the new point)
	Leave []Hit  // in the answer at the old point, not at the new one (hits at the new point)
	Cut   uint64 // the cut of the answer at the new point (see [CutOf]), for the next Diff
	Shell bool   // told from a [Shell]'s band alone (see [Grid.DiffIn])
	Held  bool   // the old answer's totals taken from the [Shell]'s last step (see [Grid.DiffIn])

	// The answer at the old point as the cut given to Diff describes it:
	// how many entities, their weight and the sum of the sum function
	// over their (key, rev). The caller checks them against what it holds
	// (a view's count and fingerprint) before applying the change.
	WasN      int
	WasWeight uint64
	WasSum    uint64

	// The answer at the new point: its count, weight and fingerprint (the
	// old answer's less Leave's, plus Enter's), set by DiffIn or Total (Diff
	// leaves them zero).
	N      int
	Weight uint64
	Sum    uint64

	Widened bool // a held step's narrow band missed the cut: scanned again with the whole one

	band   []bandHit // entities covering the new point near the limit's cut
	cand   []nearHit // the scanned cells' entities near the new point (near)
	cells  []*cell   // the cells the scan reads (scanDiff's first pass)
	runs   []scanRun // the parts of them near reads
	filled []*cell   // the cells whose entities fill the shell
	warm   uint32    // a sum of the loads that only start misses (warmRun)
	cold   bool      // no warmRun pass (BenchmarkHeldStep's baseline)
	sel    []Hit     // the band's hits, for the selection
}

// bandHit is an entity of a Step's band: its hit at the new point, and
// whether it is in the answer at the old point.
type bandHit struct {
	h     Hit
	shown bool
}

// CutOf returns a cut of an answer hs of [Grid.Nearest] with limit: one
// more than the largest [Hit.Rank] of its hits (0 for none), or [AllCut] when
// the hits weigh less than the limit (so that the next Diff tells the change
// from every entity covering the new point).
//
// The answer is a prefix in Rank order of the entities covering its point,
// so it is exactly the covering entities whose Rank there is below its cut:
// any value above the Rank of its last entity and at most that of the first
// entity the limit refused (AllCut if none). [Grid.Diff] returns the latter,
// which makes the next Diff likelier to succeed. For entities of weight 1,
// an answer lighter than the limit was not cut; with heavier ones (chains)
// it may have been, and AllCut is then a guess that the caller's check of
// [Step] refuses (the caller queries again); CutOf(hs, 0) never guesses.
func CutOf(hs []Hit, limit int) uint64 {
	var c, w uint64
	for i := range hs {
		c = max(c, hs[i].Rank()+1)
		w += uint64(hs[i].Weight)
	}
	if limit == NoLimit || w < uint64(limit) {
		return AllCut
	}
	return c
}

// AllCut is the cut of an answer that holds every entity covering its point
// (of [Grid.Covering], or of Nearest when the limit cut nothing).
const AllCut = math.MaxUint64

// bandPad (meters) widens a Diff's band past the old cut's distance.
const bandPad = 1

// Diff computes into s how the answer of Nearest(·, limit) (Covering with
// [NoLimit]) changes from point from to point to, given the cut of the
// answer at from (see [CutOf]): entities that enter and leave it, the cut at
// to, and the count, weight and fingerprint (with sum, which may be nil) of
// the answer at from as the cut describes it.
//
// It scans the cells near both points once, testing each entity at both.
// When the limit cuts the answer, only the entities covering to within the
// distance the points are apart of the old cut's distance (the band) are
// selected among: the nearer ones are in the answer, the farther ones are
// not. It returns false when that does not hold (so many entered or left that
// the cut at to is outside the band): then s is not usable and the caller
// queries again. The result is exact, the same sets as two Nearest queries
// would give, whatever the grid did since the answer at from was computed:
// only the caller's check of WasN and WasSum against what it holds tells
// whether it holds that answer.
func (g *Grid) Diff(from, to Vec, limit int, cut uint64, sum func(key, rev uint32) uint64, s *Step) bool {
	return g.diff(from, to, limit, cut, sum, s, nil, 0, nil)
}

// diff is Diff; with a shell sh, when it scans every entity covering to, it
// also fills sh for the ball of radius skin ahead of to (see [ahead]; sh.ok tells), and
// when the answer at from is the one sh holds from its last step (and it
// still holds: heldFor), the entities nearer than the band that cover both
// points are not read (decision 0265). A cut answer told is held for the
// next step. With a shell, the step's totals are set (Step.Total). With a
// cache tc (of g, limit and sum), a cell whose entities are all in both
// answers is counted from tc's totals of it (see [Cache.Diff]).
func (g *Grid) diff(from, to Vec, limit int, cut uint64, sum func(key, rev uint32) uint64, s *Step, sh *Shell, skin float32, tc *Cache) bool {
	var hd *held
	if sh != nil {
		sh.ok = false
		if g.heldFor(&sh.last, from, limit, cut) {
			hd = &sh.last
		}
	}
	ok := g.scanDiff(from, to, limit, cut, sum, s, sh, skin, hd, hd != nil, tc)
	s.Widened = false
	if !ok && hd != nil {
		// The cut at to was not in the narrow band: once more with the
		// whole one, which Diff would have used.
		ok, s.Widened = g.scanDiff(from, to, limit, cut, sum, s, sh, skin, hd, false, tc), true
	}
	if sh != nil {
		if ok {
			s.Total(sum) // for the caller, and held (hold)
		}
		sh.last.ok = false
		if ok && s.Cut != AllCut {
			g.hold(&sh.last, to, cut, s)
		}
	}
	return ok
}

// scanDiff is diff's scan; with hd, the answer at from is hd's, and with
// narrow too, the band is narrowed to where hd's last move of the cut
// predicts it, around the old cut's distance plus 0.75 of that move
// (held.band, decision 0391): it reports false when the cut at to is not
// in it. With tc and no hd, the cells wholly in both
// answers are counted from tc's totals (decision 0342).
func (g *Grid) scanDiff(from, to Vec, limit int, cut uint64, sum func(key, rev uint32) uint64, s *Step, sh *Shell, skin float32, hd *held, narrow bool, tc *Cache) bool {
	s.Enter, s.Leave, s.band, s.sel = s.Enter[:0], s.Leave[:0], s.band[:0], s.sel[:0]
	s.WasN, s.WasWeight, s.WasSum, s.Cut, s.Shell, s.Held = 0, 0, 0, 0, false, false
	s.N, s.Weight, s.Sum = 0, 0, 0
	if limit < 1 {
		return false
	}
	if g.count == 0 {
		if limit == NoLimit {
			s.Cut = AllCut
		}
		return true
	}
	maxR := math.Sqrt(float64(g.maxR2))
	// The band is [lo, hi] in distance from to: every entity of the old
	// answer (within the old cut's distance of from) is within hi of to,
	// every entity within lo of to is within the old cut's distance of from.
	lo2, hi2 := float32(inf), float32(inf)
	band2 := float32(-1) // narrowed: the band's far edge (< 0: hi2's)
	region := maxR
	fromR := -1.0 // ≥ 0: the old answer's reach around from (see below)
	if limit != NoLimit && cut != AllCut && cut != 0 {
		dCut := math.Sqrt(float64(math.Float32frombits(uint32((cut - 1) >> 32))))
		// Every entity of the old answer covers from within the old cut's
		// distance. With radii shorter than the band's reach (region =
		// maxR below), one may lie past region from to, leaving: its cell
		// is read too (a held step counts it in the held answer, so
		// missing it would tell a wrong step).
		fromR = min(maxR, dCut*(1+relSlack)+absSlack)
		delta := math.Sqrt(float64(Dist2(from, to)))
		lo := max((dCut-delta)*(1-relSlack)-absSlack, 0)
		// Past the old cut's distance by bandPad more: room for the first
		// entity refused at to when the cut given was the old answer's
		// last entity (CutOf).
		hi := (dCut+delta+bandPad)*(1+relSlack) + absSlack
		lo2, hi2 = float32(lo*lo), float32(hi*hi)
		region = min(region, hi)
		// Every entity of the old answer is still within hi (reach2),
		// but the band where the new cut is looked for is narrower
		// (held.band): what is nearer is in the new answer, and what is
		// farther and not in the old one is not read. A side as far as
		// the step's is the whole band's: then it is not narrowed (and
		// with the far side whole a "nothing cut at to" stays trusted).
		if narrow {
			// A center outside the whole band (a shorter step than the
			// last; an unknown move) is not used.
			if off, half := hd.band(); math.Abs(off) < delta {
				if nl := dCut + off - half; nl > dCut-delta {
					lo = max(lo, nl*(1-relSlack)-absSlack)
					lo2 = float32(lo * lo)
				}
				if nh := dCut + off + half; nh < dCut+delta {
					hi = min(hi, (nh+bandPad)*(1+relSlack)+absSlack)
					band2 = float32(hi * hi)
				}
			}
		}
	}
	// Every entity covering to is scanned (a narrowed band leaves out some
	// beyond it, so its "nothing cut at to" is not to be trusted: that
	// case scans again with the whole band).
	// When complete, hi ≥ maxR: nothing beyond hi covers to, so the held
	// filters' leaving out what is beyond the band and not in the old
	// answer does not undercount wFar.
	complete := region >= maxR && band2 < 0
	if !complete || skin <= 0 {
		sh = nil // no ball to fill
	}

	var wI, wB, wFar uint64 // weights covering to: nearer than the band, in it, beyond
	// With a held answer, near leaves out the entities nearer than the band
	// that cover both points and whose distance from from is below the
	// cut's (in both answers: their weight is in wI, their totals in hd's),
	// and wShown counts the weight of the old answer's entities it keeps.
	var cutHi uint32 // 0: near leaves nothing out
	var cutD2 float32
	var wShown uint64
	if hd != nil {
		cutHi = uint32(cut >> 32)
		cutD2 = math.Float32frombits(cutHi)
	}
	// Cells counted from tc's totals: only with a cut at from (lo2 is the
	// band's near edge) and no held answer (whose totals count them).
	var totD2 float32 // the old cut's squared distance (0: no totals)
	if tc != nil && hd == nil && limit != NoLimit && cut != AllCut && cut != 0 {
		totD2 = math.Float32frombits(uint32(cut >> 32))
	}
	// The cells within the region of to; when it is every entity covering
	// to, also those within reach of from (entities that leave), and the
	// shell's reach.
	r := float32(region) + slack
	x0, x1 := g.axis(to.X-r), g.axis(to.X+r)
	y0, y1 := g.axis(to.Y-r), g.axis(to.Y+r)
	var ball float32 // the shell's radius, padded
	reach2 := hi2    // entities farther from to are in neither answer
	if band2 >= 0 {
		hi2 = band2
	}
	if complete {
		reach2 = float32(inf)
		x0, x1 = min(x0, g.axis(from.X-r)), max(x1, g.axis(from.X+r))
		y0, y1 = min(y0, g.axis(from.Y-r)), max(y1, g.axis(from.Y+r))
	} else if fromR >= 0 {
		rf := float32(fromR) + slack
		x0, x1 = min(x0, g.axis(from.X-rf)), max(x1, g.axis(from.X+rf))
		y0, y1 = min(y0, g.axis(from.Y-rf)), max(y1, g.axis(from.Y+rf))
	}
	if sh != nil {
		ball = sh.start(g, ahead(from, to, skin), skin)
		x0, x1 = min(x0, sh.cx0), max(x1, sh.cx1)
		y0, y1 = min(y0, sh.cy0), max(y1, sh.cy1)
	}
	// Three passes (decision 0368): the cells the scan reads are listed
	// with the runs of entries it reads (and those that fill the shell,
	// filled in this order after), and every line of those loaded
	// in a loop of loads alone (no use of them but to have their misses
	// in flight together, not one cell after another); then their
	// entities are filtered into one list, and the kept ones told apart.
	cells, runs, filled := s.cells[:0], s.runs[:0], s.filled[:0]
	for by := y0 / blockSide; by <= y1/blockSide; by++ {
		for bx := x0 / blockSide; bx <= x1/blockSide; bx++ {
			b := g.blocks[by*g.bside+bx]
			if b == nil {
				continue
			}
			for cy := max(y0, by*blockSide); cy <= min(y1, by*blockSide+blockSide-1); cy++ {
				occ := g.occupied(bx, by, cy, x0, x1)
				if occ == 0 {
					continue
				}
				gyt, gyf := g.gap(to.Y, cy), g.gap(from.Y, cy)
				row := b[(cy%blockSide)*blockSide:]
				for ; occ != 0; occ &= occ - 1 {
					i := bits.TrailingZeros16(occ)
					c, cx := &row[i], bx*blockSide+i
					gxt, gxf := g.gap(to.X, cx), g.gap(from.X, cx)
					gt := gxt*gxt + gyt*gyt
					if sh != nil {
						gxc, gyc := g.gap(sh.c.X, cx), g.gap(sh.c.Y, cy)
						if sh.reaches(gxc*gxc+gyc*gyc, ball, c.maxR2) {
							filled = append(filled, c)
						}
					}
					gf := gxf*gxf + gyf*gyf
					if gt > c.maxR2 && gf > c.maxR2 || !complete && gt > reach2 {
						continue // no entity here is in either answer, nor in the band
					}
					if cutHi != 0 && g.heldSkips(c, cx, cy, from, to, gt, gf, lo2, hi2, cutD2) {
						continue // as near would leave out every entity
					}
					if totD2 > 0 && g.inBoth(c, cx, cy, from, to, lo2, totD2) {
						t := tc.total(c, cx, cy)
						s.WasN += t.n
						s.WasWeight += t.w
						s.WasSum += t.sum
						wI += t.w
						continue
					}
					ci := int32(len(cells))
					cells = append(cells, c)
					if cutHi != 0 {
						runs = g.heldRuns(runs, ci, c, cx, cy, from, to, lo2, hi2, cutD2)
					} else {
						runs = append(runs, scanRun{ci: ci, start: 0, end: int32(len(c.p))})
					}
				}
			}
		}
	}
	s.cells, s.runs, s.filled = cells, runs, filled
	if !s.cold {
		for _, r := range runs {
			s.warm += warmRun(cells[r.ci], r.start, r.end)
		}
		for _, c := range filled {
			s.warm += warmRun(c, 0, int32(len(c.p)))
		}
	}
	for _, c := range filled {
		sh.addCell(c, ball, sum)
	}
	// The entities within reach of to that cover either point (near keeps
	// only those), found without a branch (in a cell, those in and out
	// come in no order a branch predicts).
	kept := s.cand[:0]
	for _, r := range runs {
		ps := cells[r.ci].p[r.start:r.end]
		if cutHi == 0 {
			kept = s.near(kept, ps, r, from, to, reach2)
		} else {
			kept = s.nearHeld(kept, ps, r, from, to, reach2, lo2, hi2, cutHi)
		}
	}
	s.cand = kept
	// Told apart: in the old answer (counted in Was*), and nearer than the
	// band (wI; Enter if new), in it (s.band, wB) or beyond.
	for i := range kept {
		k := &kept[i]
		c := cells[k.c]
		dt, df := k.dt, k.df
		r2 := c.p[k.i].r2
		covT, covF := dt <= r2, df <= r2
		m := &c.m[k.i]
		shown := false
		if covF {
			if rank := uint64(math.Float32bits(df))<<32 | uint64(m.key); rank < cut {
				shown = true
				if hd != nil {
					wShown += uint64(m.weight)
				} else {
					s.WasN++
					s.WasWeight += uint64(m.weight)
					if sum != nil {
						s.WasSum += sum(m.key, m.rev)
					}
				}
			}
		}
		h := Hit{Key: m.key, Rev: m.rev, Dist2: dt, Weight: m.weight}
		switch {
		case !covT:
			if shown {
				s.Leave = append(s.Leave, h)
			}
		case dt < lo2:
			wI += uint64(m.weight)
			if !shown {
				s.Enter = append(s.Enter, h)
			}
		case dt <= hi2:
			wB += uint64(m.weight)
			s.band = append(s.band, bandHit{h, shown})
			s.sel = append(s.sel, h)
		default:
			// Beyond the band: needed when nothing is cut at to
			// (complete), else only to be hidden.
			wFar += uint64(m.weight)
			if complete || shown {
				s.band = append(s.band, bandHit{h, shown})
			}
		}
	}
	if hd != nil {
		// The entities left out are the held answer's less those kept.
		s.WasN, s.WasWeight, s.WasSum, s.Held = hd.n, hd.w, hd.sum, true
		wI += hd.w - wShown
	}
	lim := uint64(limit)
	switch {
	case wI+wB+wFar <= lim: // no cut at to: everything covering it
		if !complete {
			return false // what covers to beyond the region was not scanned
		}
		for _, b := range s.band {
			if !b.shown {
				s.Enter = append(s.Enter, b.h)
			}
		}
		s.Cut = AllCut
		if sh != nil {
			sh.ok = true
		}
		return true
	case wI > lim || wI+wB <= lim:
		return false // the cut at to is not in the band
	}
	// The band (s.sel, listed with s.band) in order of distance from to,
	// after the part nearer than it: its prefix that fits in what that
	// part left. The cut is the Rank of the first entity refused.
	s.Cut, _ = s.bandCut(lim-wI, lo2, hi2)
	for _, b := range s.band {
		in := b.h.Rank() < s.Cut
		switch {
		case in && !b.shown:
			s.Enter = append(s.Enter, b.h)
		case !in && b.shown:
			s.Leave = append(s.Leave, b.h)
		}
	}
	return true
}

// Total sets the new answer's totals (N, Weight, Sum) from the old one's,
// Enter and Leave, sum being the one the step was told with. DiffIn sets
// them; a caller of Diff that reads them calls Total (a blip or zone step
// does not: one sum a hit fewer).
func (s *Step) Total(sum func(key, rev uint32) uint64) {
	s.N, s.Weight, s.Sum = s.WasN+len(s.Enter)-len(s.Leave), s.WasWeight, s.WasSum
	for i := range s.Enter {
		h := &s.Enter[i]
		s.Weight += uint64(h.Weight)
		if sum != nil {
			s.Sum += sum(h.Key, h.Rev)
		}
	}
	for i := range s.Leave {
		h := &s.Leave[i]
		s.Weight -= uint64(h.Weight)
		if sum != nil {
			s.Sum -= sum(h.Key, h.Rev)
		}
	}
}
