package world

import (
	"cmp"
	"math"
	"slices"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A blip view's step (prims_step.go, docs/decisions/0235-prim-steps-and-holds.md).
// The wanted set is the blip grid's answer and the extras (blipExtras:
// attached blips, shown blips in their draw distance's band), cut to the
// 100 nearest by the view. With k extras among the 100, the set is the
// grid's nearest 100 − k and those k: every extra nearer than the first
// blip the grid refused at that limit is kept, every other one is farther
// than every blip of the answer and is trimmed (splitsAt). So the step is
// taken at limit 100 − k (k guessed from the last cut's distance, checked
// at the new cut, tried again at the count found there), from the view's
// old set: the old answer (the cut kept
// describes it, at its own limit) and the extras the view shows.

// stepBlips patches p's blip view by a step when p moved from the point of
// its last answer. It reports whether it did; if not, nothing changed.
func (w *World) stepBlips(p *Player) bool {
	if w.bruteForce {
		return false
	}
	s := &p.prims
	pr := &w.prims
	st := &s.blipStep
	g := pr.blipG.Lookup(p.scope)
	if g == nil || !st.due(g, p.pos) {
		return false
	}
	limit := stream.Blips.Limit()
	// The new cut is within the step (and grid.Diff's meter) of the old
	// one, or the step is refused: attached blips farther than that and a
	// meter of margin (splitsAt's padding) are past it, trimmed. When the
	// new answer is not cut (AllCut), every attached blip may be wanted:
	// the step is refused (listed).
	far2 := float32(math.Inf(1))
	if st.cut != grid.AllCut && st.cut != 0 {
		d := math.Sqrt(float64(cutDist2(st.cut))) + math.Sqrt(float64(grid.Dist2(st.at, p.pos))) + 2
		far2 = float32(d*d*(1+1e-4) + 1)
	}
	pr.extras = w.blipExtras(p, pr.extras[:0], far2)
	e1 := pr.extras
	k := len(e1)
	if st.cut != grid.AllCut {
		d := cutDist2(st.cut)
		k = 0
		for i := range e1 {
			if e1[i].Dist2 < d {
				k++
			}
		}
	}
	bc := w.caches.kinds[cacheBlips]
	// Extras that moved (attached blips follow their entity) may cross the
	// cut: k guessed wrong is told by the split at the new cut, and the step
	// tried again at the count found there, twice at most.
	for try := 0; ; try++ {
		if k >= limit || !w.blipDiff(st, g, p, limit-k, bc.sum) {
			return false
		}
		if pr.step.Cut == grid.AllCut && !math.IsInf(float64(far2), 1) {
			return false // no cut at p: every attached blip may be wanted, not only those within far2
		}
		n, ok := splitsAt(e1, pr.step.Cut)
		if ok && n == k {
			break
		}
		if !ok || try == 2 {
			return false
		}
		k = n
	}
	in := e1[:k]
	// The old set: the old answer (the Diff's WasN, WasSum) and the extras
	// the view shows (x0, at their shown revs). The new set: the answer
	// and in. Leaves and enters (pr.hide, pr.show) are the answer's.
	pr.x0 = shownExtras(p, st, pr.x0[:0])
	x0 := pr.x0
	n, sum := pr.step.WasN+len(x0), pr.step.WasSum
	for _, x := range x0 {
		sum += stream.Mix(x.ID, x.Rev)
	}
	hide := pr.hide2[:0]
	for _, id := range pr.hide { // left the answer: hidden unless kept as an extra
		if !hasWant(in, id) {
			hide = append(hide, id)
		}
	}
	for _, x := range x0 { // an extra no longer: hidden unless it entered the answer
		if !hasWant(in, x.ID) && !hasWant(pr.show, x.ID) {
			hide = append(hide, x.ID)
		}
	}
	show := pr.show2[:0]
	for _, set := range [2][]stream.Want{pr.show, in} {
		for _, e := range set {
			if i := slices.IndexFunc(x0, func(x stream.Want) bool { return x.ID == e.ID }); i >= 0 {
				if x0[i].Rev != e.Rev { // shown at another rev (an attached blip that followed): shown again, as Reconcile does
					show = append(show, e)
				}
				continue
			}
			if !slices.Contains(pr.hide, e.ID) { // an extra that left the answer stays
				show = append(show, e)
			}
		}
	}
	pr.hide, pr.hide2 = hide, pr.hide
	pr.show, pr.show2 = show, pr.show
	if !w.stepPatch(st, p.pos, n, sum, s.blips, takeRoom(p)) {
		return false
	}
	settle(p, cacheBlips, p.pos)
	if len(pr.attBlip) > 0 && (len(x0) > 0 || k > 0) {
		pr.markSteps++
	}
	return true
}

// splitsAt splits the wants ws by the distance of cut, the first blip the
// grid refused (padded for float32 rounding): it moves the nearer ones to
// the front of ws and returns how many, or false when a want is within the
// padding. It partitions rather than sorts: a world with a blip on every
// player has a thousand extras, most far past the cut. With no cut (the
// answer holds every blip), every want is nearer.
func splitsAt(ws []stream.Want, cut uint64) (int, bool) {
	if cut == grid.AllCut {
		return len(ws), true
	}
	d := cutDist2(cut)
	lo, hi := d*(1-1e-5)-1e-4, d*(1+1e-5)+1e-4
	n := 0
	for i := range ws {
		switch {
		case ws[i].Dist2 < lo:
			ws[n], ws[i] = ws[i], ws[n]
			n++
		case !(ws[i].Dist2 > hi):
			return 0, false
		}
	}
	return n, true
}

// shownExtras appends the blips p's view shows that the answer kept in st
// does not hold: attached ones, and blips with a draw distance outside it
// (not covering st's point, or past its cut), each at its shown rev.
func shownExtras(p *Player, st *primStep, x0 []stream.Want) []stream.Want {
	v := p.prims.blips
	for _, b := range p.prims.attShown {
		if rev, ok := v.Shown(b.id); ok {
			x0 = append(x0, stream.Want{ID: b.id, Rev: rev})
		}
	}
	for i := range p.prims.farBlips {
		f := &p.prims.farBlips[i]
		// The entry's own copy first: most are in the answer, and the
		// view's table, a cache miss a blip, is read only for the others.
		if f.state == farAttached || f.state == farLive && f.scope == p.scope && inAnswer(st, f) {
			continue
		}
		if rev, ok := v.Shown(f.id); ok {
			x0 = append(x0, stream.Want{ID: f.id, Rev: rev})
		}
	}
	return x0
}

// inAnswer reports whether the unattached blip of f, with a draw distance, is
// in the answer at st's point as its cut describes it: covering the point
// and ranked before the cut (grid.Hit.Rank, computed as the grid does).
func inAnswer(st *primStep, f *farBlip) bool {
	d := grid.Dist2(f.at, st.at)
	r := f.dd
	return (r == 0 || d <= r*r) && uint64(math.Float32bits(d))<<32|uint64(f.slot) < st.cut
}

// keepBlips records in st the grid's answer hits at at for the next step,
// with the cut of the part of it the view keeps: with extras wanted, the
// nearest-100 trim of the whole may drop the answer's farthest blips.
func (w *World) keepBlips(st *primStep, g *grid.Grid, at grid.Vec, extras []stream.Want, hits []grid.Hit) {
	limit := stream.Blips.Limit()
	if len(hits)+len(extras) <= limit {
		st.keep(g, at, hits, limit)
		return
	}
	pr := &w.prims
	pr.sorted = append(pr.sorted[:0], hits...)
	slices.SortFunc(pr.sorted, func(a, b grid.Hit) int { return cmp.Compare(a.Rank(), b.Rank()) })
	pr.x0 = append(pr.x0[:0], extras...)
	slices.SortFunc(pr.x0, func(a, b stream.Want) int { return cmp.Compare(a.Dist2, b.Dist2) })
	h, e := pr.sorted, pr.x0
	i, j := 0, 0
	for range limit {
		switch {
		case j < len(e) && (i == len(h) || e[j].Dist2 < h[i].Dist2):
			j++
		case i < len(h) && (j == len(e) || h[i].Dist2 < e[j].Dist2):
			i++
		default: // a tie: the trim's order is not the grid's
			*st = primStep{}
			return
		}
	}
	if i == len(h) {
		st.keep(g, at, hits, limit)
		return
	}
	*st = primStep{g: g, at: at, cut: h[i].Rank()} // the first blip of the answer the trim drops
}

// hasWant reports whether ws holds a want of id.
func hasWant(ws []stream.Want, id uint32) bool {
	return slices.ContainsFunc(ws, func(e stream.Want) bool { return e.ID == id })
}

// trimmedSum returns the count and fingerprint of the view's trim of the
// wanted set hits (the grid's answer) and extras: its nearest 100. It
// reports false when two wants at the trim's cut are equally far (the
// trim's order among them is not the distance's).
func (w *World) trimmedSum(hits []grid.Hit, extras []stream.Want) (int, uint64, bool) {
	pr := &w.prims
	pr.sorted = append(pr.sorted[:0], hits...)
	slices.SortFunc(pr.sorted, func(a, b grid.Hit) int { return cmp.Compare(a.Dist2, b.Dist2) })
	pr.x0 = append(pr.x0[:0], extras...)
	slices.SortFunc(pr.x0, func(a, b stream.Want) int { return cmp.Compare(a.Dist2, b.Dist2) })
	h, e := pr.sorted, pr.x0
	n := min(stream.Blips.Limit(), len(h)+len(e))
	i, j := 0, 0
	var sum uint64
	var last float32
	for range n {
		switch {
		case j < len(e) && (i == len(h) || e[j].Dist2 < h[i].Dist2):
			sum += stream.Mix(e[j].ID, e[j].Rev)
			last = e[j].Dist2
			j++
		case i < len(h) && (j == len(e) || h[i].Dist2 < e[j].Dist2):
			sum += stream.Mix(pr.blipHot.v[h[i].Key], h[i].Rev)
			last = h[i].Dist2
			i++
		default:
			return 0, 0, false
		}
	}
	if i < len(h) && h[i].Dist2 == last || j < len(e) && e[j].Dist2 == last {
		return 0, 0, false
	}
	return n, sum, true
}

// pastTrim drops from the extras ws the ones the view's nearest-100 trim
// drops for sure: farther than every one of 100 or more hits. A world with
// a blip on every player then reconciles a hundred wants and a few, not a
// thousand.
func pastTrim(ws []stream.Want, hits []grid.Hit) []stream.Want {
	if len(hits) < stream.Blips.Limit() {
		return ws
	}
	var far float32
	for i := range hits {
		far = max(far, hits[i].Dist2)
	}
	n := 0
	for _, e := range ws {
		if !(e.Dist2 > far) {
			ws[n] = e
			n++
		}
	}
	return ws[:n]
}
