package world

import (
	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A label view's step (docs/decisions/0231-world-views-by-step.md, 0211,
// docs/decisions/0250-label-steps-and-markers.md). The wanted set is the label grid's
// answer (every label covering the point: labelG, never cut) and the
// extras: the labels on entities streamed to the player and the labels with
// the player as viewer (labelExtras), which no grid answer holds (attached
// labels are in no grid, labels with a viewer in labelOwnG). The two parts
// are disjoint, so a moving player's view is patched by the grid's step
// (grid.DiffIn with the view's shell) and the extras as they are now: the
// old set is the old answer and the extras the view shows (at their shown
// revs); an extra no longer wanted leaves the view's count unmatched, and
// the step is refused. The view keeps the 256 nearest: a step is taken
// only while the whole new set fits, so the trim drops nothing.

// labelSkin (meters) is the label shells' skin: about 3.5 slow passes of a
// runner (7 m a second), as the object and pickup shells' (cache_step.go).
const labelSkin = 25

// stepLabels patches p's label view by a step when p moved from the point
// of its last answer, leaving the ops in w.prims.ops. It reports whether it
// did; if not, nothing changed.
func (w *World) stepLabels(p *Player) bool {
	pr := &w.prims
	v := p.prims.labels
	g := pr.labelG.Lookup(p.scope)
	if w.bruteForce || g == nil || !p.hasPos || v.Pending() > 0 {
		return false
	}
	st := p.spots[cacheLabels].stepOf()
	if !st.from(p.scope, g, p.pos) {
		return false
	}
	s := &pr.step
	if !g.DiffIn(&st.shell, labelSkin, st.at, p.pos, grid.NoLimit, grid.AllCut, stream.Mix, s) {
		return false
	}
	pr.extras = w.labelExtras(p, pr.extras[:0])
	if s.WasN-len(s.Leave)+len(s.Enter)+len(pr.extras) > stream.Labels.Limit() {
		return false // the trim would cut the new set
	}
	n, sum := s.WasN, s.WasSum
	pr.hide = pr.hide[:0]
	for i := range s.Leave {
		pr.hide = append(pr.hide, s.Leave[i].Key)
	}
	pr.show = pr.show[:0]
	for i := range s.Enter {
		h := &s.Enter[i]
		pr.show = append(pr.show, stream.Want{ID: h.Key, Rev: h.Rev, Dist2: h.Dist2})
	}
	for _, e := range pr.extras {
		rev, shown := v.Shown(e.ID)
		if shown {
			n++
			sum += stream.Mix(e.ID, rev)
		}
		if !shown || rev != e.Rev { // new, or shown again at its new rev (as Reconcile does)
			pr.show = append(pr.show, e)
		}
	}
	var patched bool
	if pr.ops, patched = v.Patch(n, sum, pr.hide, pr.show, w.labelRoom(p, 0, false), stream.HidesFirst, pr.ops[:0]); !patched {
		return false
	}
	st.set(p.scope, g, p.pos, grid.AllCut)
	pr.labelSteps++
	if s.Shell {
		pr.labelShells++
	}
	return true
}

// labelStepFrom records, after a listed pass of p's label view, the grid's
// answer at p's point as the next step's start.
func (w *World) labelStepFrom(p *Player) {
	st := p.spots[cacheLabels].stepOf()
	if g := w.prims.labelG.Lookup(p.scope); g != nil && p.hasPos && !w.bruteForce {
		st.set(p.scope, g, p.pos, grid.AllCut)
	} else {
		st.ok = false
	}
}

// labelExtras appends the labels p should see that the label grid's
// answer does not hold: those on entities streamed to p (not on p), and
// those with p as their viewer, within their draw distance.
func (w *World) labelExtras(p *Player, wants []stream.Want) []stream.Want {
	pr := &w.prims
	wants = w.labelsOnShown(p, wants)
	if w.bruteForce {
		return wants
	}
	if g := pr.labelOwnG.Lookup(p.scope); g != nil { // labels with a viewer: few
		pr.hits = g.Covering(p.pos, pr.hits[:0])
		for _, h := range pr.hits {
			if l := pr.labels[h.Key]; l.params.Viewer == p {
				wants = append(wants, stream.Want{ID: l.id, Rev: l.rev, Dist2: h.Dist2})
			}
		}
	}
	return wants
}
