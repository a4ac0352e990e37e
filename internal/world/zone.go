package world

import (
	"math"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
	"dlmp/internal/wire"
)

// Gang zones (world.md GangZone). A zone is created hidden; the gamemode
// shows it to everyone or to one player and hides it the same way. A player
// sees a zone in their scope when it is shown to them: shown to everyone
// and not hidden for them, or shown for them. Among those, the 1024 nearest
// by the zone's center, with no distance limit. Every change bumps the
// zone's rev, and the players who see it get the new show (which replaces
// the zone on the client). Per-player show and hide sets live on the
// Player: they are discarded when the player leaves, and a new connection
// starts from the zones shown to everyone.

// ZoneScanMax is how many gang zones the world may hold before a player's
// wanted set is taken from the grid (the nearest 1024) instead of a scan.
const ZoneScanMax = 2048

// ZoneParams is what create_gang_zone takes and a change replaces.
type ZoneParams struct {
	Min, Max   [2]float32 // corners (x, y): max above min on both axes, within world bounds
	Color      uint32     // 0xRRGGBB
	Alpha      uint8      // 0..255
	Flashing   bool       // moves from Color to FlashColor and back over 1024 ms
	FlashColor uint32     // 0xRRGGBB
	Scope      grid.Scope
}

// GangZone is one gang zone. Read it with [World.GangZone].
type GangZone struct {
	params ZoneParams
	id     uint32
	rev    uint32 // the wire's rev: grows with every change
	all    bool   // shown to everyone
	h      grid.Handle
	slot   uint32 // key in the grid and in prims.zoneHot while all
}

// ID returns the zone id.
func (z *GangZone) ID() uint32 { return z.id }

// Rev returns the zone's revision.
func (z *GangZone) Rev() uint32 { return z.rev }

// Params returns the zone's current parameters.
func (z *GangZone) Params() ZoneParams { return z.params }

// ShownToAll reports whether the zone is shown to everyone.
func (z *GangZone) ShownToAll() bool { return z.all }

func (z *GangZone) center() grid.Vec {
	return grid.Vec{X: (z.params.Min[0] + z.params.Max[0]) / 2, Y: (z.params.Min[1] + z.params.Max[1]) / 2}
}

// GangZone returns the zone with the id, or nil.
func (w *World) GangZone(id uint32) *GangZone { return w.prims.zones[id] }

// CreateGangZone creates a hidden zone and returns its id (one counter
// with labels, blips and checkpoints); the parameters are checked with
// GangZone's send rules.
func (w *World) CreateGangZone(zp ZoneParams) (uint32, error) {
	if err := checkZone("create_gang_zone", zp); err != nil {
		return 0, err
	}
	z := &GangZone{params: zp, id: w.prims.nextID(), rev: 1}
	w.prims.zones[z.id] = z
	return z.id, nil
}

// SetGangZone replaces a zone's parameters (rectangle, colors, flashing,
// scope): the rev grows and every player who sees it gets the new show.
func (w *World) SetGangZone(id uint32, zp ZoneParams) error {
	z := w.prims.zones[id]
	if z == nil {
		return stateErr("set_gang_zone", "zone", "no gang zone %d", id)
	}
	if err := checkZone("set_gang_zone", zp); err != nil {
		return err
	}
	inPlace := zp.Scope == z.params.Scope && z.center() == (&GangZone{params: zp}).center()
	w.unplaceZone(z)
	z.params = zp
	z.rev++
	w.placeZone(z)
	if inPlace {
		// The same center in the same scope: wanted by the same players
		// (the 1024 nearest by center); only who has it shown needs the new
		// show (docs/decisions/0197-in-place-changes.md).
		w.zoneShownChanged(z)
		return nil
	}
	w.zoneChanged(z, nil)
	return nil
}

// zoneShownChanged marks for the next tick the players who have z shown.
func (w *World) zoneShownChanged(z *GangZone) {
	for _, p := range w.players {
		if p != nil && !p.gone && p.prims.zones != nil {
			if _, shown := p.prims.zones.Shown(z.id); shown {
				p.prims.zonesDirty = true
			}
		}
	}
}

// ShowGangZone shows the zone to p, or to everyone with p nil (which also
// drops every per-player hide of it). Showing it again changes nothing.
func (w *World) ShowGangZone(id uint32, p *Player) error {
	return w.setZoneShown(id, p, true, "show_gang_zone")
}

// HideGangZone hides the zone from p, or from everyone with p nil (which
// also drops every per-player show of it).
func (w *World) HideGangZone(id uint32, p *Player) error {
	return w.setZoneShown(id, p, false, "hide_gang_zone")
}

func (w *World) setZoneShown(id uint32, p *Player, show bool, fn string) error {
	z := w.prims.zones[id]
	if z == nil {
		return stateErr(fn, "zone", "no gang zone %d", id)
	}
	if p != nil {
		if p.left || w.players[p.id] != p {
			return stateErr(fn, "player", "player %d left", p.id)
		}
		p.prims.init()
		p.prims.zoneSet[id] = show
		w.zoneChanged(z, p)
		return nil
	}
	w.unplaceZone(z)
	z.all = show
	w.placeZone(z)
	for _, q := range w.players {
		if q != nil && q.prims.zoneSet != nil {
			delete(q.prims.zoneSet, id)
		}
	}
	w.zoneChanged(z, nil)
	return nil
}

// DeleteGangZone deletes a zone: every player who sees it gets a hide.
func (w *World) DeleteGangZone(id uint32) error {
	z := w.prims.zones[id]
	if z == nil {
		return stateErr("delete_gang_zone", "zone", "no gang zone %d", id)
	}
	w.unplaceZone(z)
	delete(w.prims.zones, id)
	for _, q := range w.players {
		if q != nil && q.prims.zoneSet != nil {
			delete(q.prims.zoneSet, id)
		}
	}
	w.zoneChanged(z, nil)
	return nil
}

func checkZone(fn string, zp ZoneParams) error {
	var z GangZone
	z.params = zp
	var pkt wire.GangZone
	z.fill(&pkt)
	return fieldArgErr2(fn, pkt.CheckSend())
}

// fieldArgErr2 is fieldArgErr that passes nil through.
func fieldArgErr2(fn string, err error) error {
	if err == nil {
		return nil
	}
	return fieldArgErr(fn, err)
}

// placeZone puts a zone shown to everyone in its scope's grid.
func (w *World) placeZone(z *GangZone) {
	if z.all {
		z.slot = w.prims.zoneHot.add(z.id)
		g := w.prims.zoneG.Get(z.params.Scope)
		z.h = g.Insert(z.slot, z.center(), float32(math.Inf(1)))
		g.SetRev(z.h, z.rev) // the box caches' fingerprints read it
	}
}

func (w *World) unplaceZone(z *GangZone) {
	if !z.all {
		return
	}
	w.prims.zoneHot.remove(z.slot)
	g := w.prims.zoneG.Get(z.params.Scope)
	g.Remove(z.h)
	if g.Len() == 0 {
		w.prims.zoneG.Prune(z.params.Scope)
	}
}

// zoneChanged marks for the next tick the zones of only (or, when nil, of
// every player in the zone's scope or who sees it): zones concern everyone
// in their scope, so many changes in one tick cost one reconcile per player.
func (w *World) zoneChanged(z *GangZone, only *Player) {
	for _, p := range w.players {
		if p == nil || p.gone || only != nil && p != only {
			continue
		}
		p.prims.init()
		if _, shown := p.prims.zones.Shown(z.id); shown || p.scope == z.params.Scope {
			p.prims.zonesDirty = true
		}
	}
}

// zoneVisible reports whether z is shown to p (scope aside).
func zoneVisible(p *Player, z *GangZone) bool { return zoneShownFor(p, z.id, z.all) }

// zoneShownFor is zoneVisible by id: the player's own show or hide of the
// zone, else all (whether it is shown to everyone).
func zoneShownFor(p *Player, id uint32, all bool) bool {
	if set, ok := p.prims.zoneSet[id]; ok {
		return set
	}
	return all
}

// reconcileZones diffs p's zone view against the zones p should see now.
func (w *World) reconcileZones(p *Player) {
	if p.gone || p.left {
		return
	}
	s := &p.prims
	s.init()
	pr := &w.prims
	pr.passes[primZones]++
	if !w.stepZones(p) {
		var same bool
		pr.wants, same = w.zoneWants(p, pr.wants[:0], s.zones)
		if same {
			s.zoneAnchor.Mark(p.pos)
			return
		}
		pr.ops = s.zones.Reconcile(pr.wants, takeRoom(p), stream.HidesFirst, pr.ops[:0])
	}
	s.zoneAnchor.Mark(p.pos)
	w.sendZoneOps(p)
}

// sendZoneOps sends p the shows and hides of its zone view's pass
// (prims.ops).
func (w *World) sendZoneOps(p *Player) {
	pr := &w.prims
	pkt := &pr.zone
	for _, op := range pr.ops {
		if op.Show {
			pr.zones[op.ID].fill(pkt)
		} else {
			*pkt = wire.GangZone{ZoneID: op.ID}
		}
		sendOp(w, p, pkt)
	}
}

// zoneWants appends the zones p should see: the nearest 1024 shown to
// everyone and not hidden for p, and every zone shown for p; the view cuts
// the whole to the 1024 nearest. With v's steady check (see labelWants),
// for a player without zones shown or hidden for them alone: the nearest
// 1024 from the box cache are the wanted set.
func (w *World) zoneWants(p *Player, wants []stream.Want, v *stream.View) (_ []stream.Want, same bool) {
	pr := &w.prims
	at := grid.Vec{X: p.pos.X, Y: p.pos.Y}
	// Up to ZoneScanMax zones in the world, a scan of them all beats the
	// grid, whose +Inf radii make every query walk every cell
	// (docs/benchmarks/prims.md).
	if w.bruteForce || len(pr.zones) <= ZoneScanMax {
		for _, z := range pr.zones {
			if z.params.Scope == p.scope && zoneVisible(p, z) {
				wants = append(wants, stream.Want{ID: z.id, Rev: z.rev, Dist2: grid.Dist2(at, z.center())})
			}
		}
		return wants, false
	}
	zc := w.caches.kinds[cacheZones]
	if g, c := zc.get(p.scope); g != nil {
		limit := stream.GangZones.Limit()
		for _, set := range p.prims.zoneSet {
			if !set {
				limit++ // room for the zones hidden for p
			}
		}
		switch {
		case limit == stream.GangZones.Limit():
			steady := v != nil && len(p.prims.zoneSet) == 0
			if h := &p.prims.zoneHold; steady && h.holds(g, at) && v.Unchanged(h.n, uint64(h.n), h.sum) {
				w.caches.steady[cacheZones]++
				pr.holds++
				return wants, true
			}
			sp := &p.spots[cacheZones]
			settled := sp.ok && sp.scope == p.scope && grid.Dist2(sp.at, at) <= cacheSettle*cacheSettle
			box, hits := zc.query(g, c, sp, p.scope, at, pr.hits[:0])
			if steady {
				n, weight, sum := zc.answerSum(box, hits)
				if settled && !p.prims.zoneHold.near(g, at) {
					w.holdZones(p, g, at, n, sum)
				}
				if v.Unchanged(n, weight, sum) {
					pr.hits = hits
					w.caches.steady[cacheZones]++
					if st := &p.prims.zoneStep; box.Len() == 0 { // the grid's answer, whole: its cut is known
						st.keep(g, at, hits, limit)
					} else if st.at != at {
						*st = primStep{}
					}
					return wants, true
				}
			}
			pr.hits = box.AppendSure(at, hits)
			p.prims.zoneStep.keep(g, at, pr.hits, limit)
		case g.Len() <= limit:
			pr.hits = g.Covering(at, pr.hits[:0]) // all of them: no cut to find
		default:
			pr.hits = g.Nearest(at, limit, pr.hits[:0])
		}
		for _, h := range pr.hits {
			if id := pr.zoneHot.v[h.Key]; zoneShownFor(p, id, true) {
				wants = append(wants, stream.Want{ID: id, Rev: h.Rev, Dist2: h.Dist2})
			}
		}
	}
	for id, set := range p.prims.zoneSet {
		if z := pr.zones[id]; set && z != nil && !z.all && z.params.Scope == p.scope {
			wants = append(wants, stream.Want{ID: z.id, Rev: z.rev, Dist2: grid.Dist2(at, z.center())})
		}
	}
	return wants, false
}

// stepZones patches p's zone view by a step of the zone grid's answer
// (prims_step.go) when p moved from the point of its last answer, the
// world holds more than ZoneScanMax zones (the grid's path) and p has no
// zone shown or hidden for them alone: then the grid's answer is the
// wanted set. It reports whether it did; if not, nothing changed.
func (w *World) stepZones(p *Player) bool {
	pr := &w.prims
	s := &p.prims
	if w.bruteForce || len(pr.zones) <= ZoneScanMax || len(s.zoneSet) > 0 {
		return false
	}
	at := grid.Vec{X: p.pos.X, Y: p.pos.Y}
	st := &s.zoneStep
	g := pr.zoneG.Lookup(p.scope)
	if g == nil || !st.due(g, at) {
		return false
	}
	// The step by the zone cache's Diff (its limit and sum are the view's):
	// the zones nearer than the band are counted from its cells' totals
	// (decision 0342), which a zone grid of +Inf radii would otherwise read
	// whole on every step.
	_, c := w.caches.kinds[cacheZones].get(p.scope)
	if c == nil || !c.Diff(st.at, at, st.cut, &pr.step) {
		return false
	}
	pr.stepWants(pr.zoneHot.v)
	if !w.stepPatch(st, at, pr.step.WasN, pr.step.WasSum, s.zones, takeRoom(p)) {
		return false
	}
	settle(p, cacheZones, at)
	return true
}

// fill writes the zone's show into s.
func (z *GangZone) fill(s *wire.GangZone) {
	*s = wire.GangZone{ZoneID: z.id, Active: 1, Color: z.params.Color, Alpha: z.params.Alpha, FlashColor: z.params.FlashColor,
		MinX: z.params.Min[0], MinY: z.params.Min[1], MaxX: z.params.Max[0], MaxY: z.params.Max[1], Rev: z.rev}
	if z.params.Flashing {
		s.Flashing = 1
	}
}
