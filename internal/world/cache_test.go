package world

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// invalidateAll makes every view of every player due: the next tick is a
// full pass (as BenchmarkFullPass runs it).
func invalidateAll(ps []*Player) {
	for _, p := range ps {
		p.pickAnchor.Invalidate()
		p.ent.playerAt.Invalidate()
		p.ent.vehicleAt.Invalidate()
		p.ent.objectAt.Invalidate()
		p.prims.due = time.Time{}
		p.prims.zoneAnchor.Invalidate()
	}
}

// randomSteps moves every player of ps (clients cs) by a distance drawn
// from dists, in a random direction, and syncs it there.
func (f *fixture) randomSteps(r *rand.Rand, ps []*Player, cs []*testConn, dists []float32) {
	for i, p := range ps {
		d := dists[r.IntN(len(dists))]
		a := r.Float64() * 2 * math.Pi
		pos := p.pos
		pos.X += d * float32(math.Cos(a))
		pos.Y += d * float32(math.Sin(a))
		f.sync(p, cs[i], pos, 1)
	}
}

// settleAll makes every view of ps due, advances the world by d, and has
// every client of cs take and acknowledge what it was sent.
func (f *fixture) settleAll(ps []*Player, cs []*testConn, d time.Duration) {
	invalidateAll(ps)
	f.advance(d)
	for _, c := range cs {
		c.take()
		c.ackAll()
	}
}

// checkViews fails the test unless every view of every player of ps is
// what a fresh view shows from the wanted sets of a scan of every entity.
func checkViews(t *testing.T, f *fixture, ps []*Player, when string) {
	t.Helper()
	pr := &f.w.prims
	for i, q := range ps {
		t.Logf("%s, player %d", when, i)
		sc, c, _ := q.objectCenter()
		sameView(t, "objects", q.ent.objects, stream.Objects.Limit(),
			brute(f.w, func() []stream.Want { w, _ := f.w.objectWants(q, sc, c, nil, nil); return w }))
		sameView(t, "pickups", q.pickups, stream.Pickups.Limit(),
			brute(f.w, func() []stream.Want { w, _ := f.w.pickupWants(q, nil, nil); return w }))
		sameView(t, "labels", q.prims.labels, stream.Labels.Limit(),
			brute(f.w, func() []stream.Want { w, _ := f.w.labelWants(q, pr.wants[:0], nil); return w }))
		sameView(t, "blips", q.prims.blips, stream.Blips.Limit(),
			brute(f.w, func() []stream.Want { w, _ := f.w.blipWants(q, pr.wants[:0], nil); return w }))
		sameView(t, "zones", q.prims.zones, stream.GangZones.Limit(),
			brute(f.w, func() []stream.Want { w, _ := f.w.zoneWants(q, pr.wants[:0], nil); return w }))
	}
}

// The full pass through the box caches (every view due, as when every
// player lands at once, and the once-a-second passes) leaves every view as
// a scan of every entity would: after random changes of every cached kind,
// including the entities with a per-player rule (objects and labels with a
// viewer, objects attached to players, chains), and with no change at all
// (the steady check). The caches must have been used: boxes built and views
// found unchanged without a list, for every kind.
func TestCachedFullPassEqualsBruteForce(t *testing.T) {
	for seed := range uint64(3) {
		f, r, near := seeded(t, seed, 2027)
		// Players 0..3 stand among the roots with a per-player rule (and
		// carry chains of their own), players 4..7 2 km away among plain
		// roots only.
		var ps []*Player
		var cs []*testConn
		for i := range 8 {
			p, c := f.join()
			f.spawnAcked(p, c, at(float32(i%4*50-100+i/4*2000), float32(i%3*30)))
			ps, cs = append(ps, p), append(cs, c)
		}
		var objs, pks, labels, blips, zs []uint32
		for i := range 3000 { // dense: the 1000-object cut falls inside the stream distance
			op := ObjectParams{Model: 1225, Pos: near(150), Distance: float32(50 + r.IntN(300))} // a barrel: it breaks
			if i%97 == 0 {
				op.Viewer = ps[r.IntN(len(ps))]
			}
			objs = append(objs, f.object(op))
		}
		for range 3000 {
			p := near(150)
			p.X += 2000
			objs = append(objs, f.object(ObjectParams{Model: 1225, Pos: p, Distance: float32(50 + r.IntN(300))}))
		}
		for i := range 60 { // chains of two, and chains on players
			f.w.AttachObject(objs[i], AttachParams{Kind: KindObject, ID: objs[i+100], Offset: grid.Vec{Z: 1}})
			f.w.AttachObject(objs[3000+i], AttachParams{Kind: KindObject, ID: objs[3100+i], Offset: grid.Vec{Z: 1}})
		}
		for i := range 4 { // half the players carry a chain of their own
			f.w.AttachObject(objs[200+i], AttachParams{Kind: KindPlayer, ID: uint32(ps[i].id), Offset: grid.Vec{Z: 1}})
		}
		for range 400 {
			pks = append(pks, f.pickup(PickupParams{Pos: near(150)}))
		}
		for i := range 600 {
			lp := LabelParams{Text: "x", Pos: near(150), DrawDistance: float32(20 + r.IntN(200))}
			if i%50 == 0 {
				lp.Viewer = ps[r.IntN(len(ps))]
			}
			labels = append(labels, f.label(lp))
		}
		for i := range 300 {
			bp := BlipParams{Pos: near(400)}
			if i%3 == 0 {
				bp.DrawDistance = float32(50 + r.IntN(200))
			}
			blips = append(blips, f.blip(bp))
		}
		for range ZoneScanMax + 100 { // the grid's nearest-1024 path
			c := near(400)
			id := f.zone(ZoneParams{Min: [2]float32{c.X - 10, c.Y - 10}, Max: [2]float32{c.X + 10, c.Y + 10}, Color: 0xFF0000, Alpha: 96})
			if err := f.w.ShowGangZone(id, nil); err != nil {
				t.Fatal(err)
			}
			zs = append(zs, id)
		}
		pick := func(s []uint32) uint32 { return s[r.IntN(len(s))] }
		pass := func() { f.settleAll(ps, cs, tick) }
		for round := range 40 {
			if round%4 != 3 { // every fourth round: no change, the steady pass
				for range 1 + r.IntN(4) {
					switch r.IntN(12) {
					case 0:
						if o := f.w.Object(pick(objs)); o != nil && o.kind == 0 {
							f.w.SetObjectPose(o.id, near(150), Rot{})
						}
					case 1:
						if o := f.w.Object(pick(objs)); o != nil {
							f.w.SetObjectBroken(o.id, !o.Broken()) // a member's rev: its chain's fingerprint
						}
					case 2:
						if o := f.w.Object(pick(objs)); o != nil && o.kind != 0 {
							f.w.DetachObject(o.id)
						}
					case 3:
						f.w.DeleteObject(pick(objs))
					case 4:
						if pk := f.w.Pickup(pick(pks)); pk != nil {
							f.w.MovePickup(pk.id, near(150))
						}
					case 5:
						if l := f.w.Label(pick(labels)); l != nil {
							lp := l.Params()
							lp.Text += "!"
							f.w.SetLabel(l.ID(), lp)
						}
					case 6:
						if b := f.w.Blip(pick(blips)); b != nil {
							bp := b.Params()
							bp.Color ^= 0xFF
							f.w.SetBlip(b.ID(), bp)
						}
					case 7:
						if z := f.w.GangZone(pick(zs)); z != nil {
							zp := z.Params()
							zp.Color ^= 0xFF
							f.w.SetGangZone(z.ID(), zp)
						}
					case 8:
						f.w.HideGangZone(pick(zs), ps[r.IntN(len(ps))])
					case 10: // a player walks: blips into and out of their hysteresis band
						i := r.IntN(len(ps))
						pos := ps[i].pos
						pos.X += float32(r.IntN(121) - 60)
						pos.Y += float32(r.IntN(121) - 60)
						f.sync(ps[i], cs[i], pos, 1)
					case 11: // a blip gets or loses a draw distance
						if b := f.w.Blip(pick(blips)); b != nil {
							bp := b.Params()
							if bp.DrawDistance == 0 {
								bp.DrawDistance = float32(30 + r.IntN(200))
							} else {
								bp.DrawDistance = 0
							}
							f.w.SetBlip(b.ID(), bp)
						}
					case 9: // a member below a root: only its chain's fingerprint changes
						if o := f.w.Object(objs[r.IntN(60)+r.IntN(2)*3000]); o != nil && o.kind == KindObject {
							f.w.SetObjectBroken(o.id, !o.Broken())
						}
					}
				}
			}
			pass()
			checkViews(t, f, ps, "after a pass")
		}
		st := f.w.CacheStats()
		for k, name := range []string{"objects", "pickups", "labels", "blips", "zones"} {
			if st[k].Builds == 0 || st[k].Steady == 0 || st[k].Repeats == 0 {
				t.Errorf("seed %d: %s: %d boxes built, %d views found steady, %d answers repeated: the cache was not used",
					seed, name, st[k].Builds, st[k].Steady, st[k].Repeats)
			}
		}
	}
}

// The merge of the cache's answer with the roots of a per-player rule stops
// at the first root the limit refuses: 998 plain objects near the player,
// then a chain of 3 (refused: 1001 > 1000), then an object only the player
// sees, farther. The chain is refused and so is everything after it, the
// player's object too, though it alone would fit.
func TestObjectCutStopsRuledRoots(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	for i := range 998 {
		f.object(ObjectParams{Pos: at(float32(i%40)*0.25, float32(i/40)*0.25)})
	}
	root := f.object(ObjectParams{Pos: at(20, 0)})
	for range 2 {
		f.attach(f.object(ObjectParams{Pos: at(20, 0)}), AttachParams{Kind: KindObject, ID: root, Offset: grid.Vec{Z: 1}})
	}
	f.spawnAcked(p, c, at(0, 0))
	mine := f.object(ObjectParams{Pos: at(30, 0), Viewer: p})
	for range 6 { // every view due: the caches build their boxes, then answer
		invalidateAll([]*Player{p})
		f.advance(tick)
		c.take()
		c.ackAll()
		checkViews(t, f, []*Player{p}, "a pass")
		if _, ok := p.ent.objects.Shown(mine); ok {
			t.Fatalf("object %d, after the refused chain, is shown", mine)
		}
		if _, ok := p.ent.objects.Shown(root); ok {
			t.Fatalf("the chain of %d, refused, is shown", root)
		}
		if got := p.ent.objects.Len(); got != 998 {
			t.Fatalf("%d objects shown, want 998", got)
		}
	}
	if st := f.w.CacheStats()[cacheObjects]; st.Builds == 0 {
		t.Fatalf("no box built: %+v", st)
	}
}

// A blip shown without a draw distance that gets one, with the player in
// its new hysteresis band, stays shown (it is shown, within the band), as
// with a scan of every blip; past the band it is hidden.
func TestBlipGainsDistanceInItsBand(t *testing.T) {
	for _, brute := range []bool{false, true} {
		f := newFixture(t, nil)
		f.w.bruteForce = brute
		p, c := f.join()
		f.spawn(p, c, grid.Vec{X: 105})
		id := f.blip(BlipParams{Pos: grid.Vec{}})
		for range 4 { // the box is built on its third query
			f.slowPass()
		}
		if !p.BlipShown(id) {
			t.Fatalf("brute %v: the blip without a distance is not shown", brute)
		}
		b := f.w.Blip(id)
		bp := b.Params()
		bp.DrawDistance = 100
		if err := f.w.SetBlip(id, bp); err != nil {
			t.Fatal(err)
		}
		f.slowPass()
		if !p.BlipShown(id) {
			t.Fatalf("brute %v: 105 m from a blip of 100 m, shown: hidden", brute)
		}
		f.walk(p, c, grid.Vec{X: 111})
		f.slowPass()
		if p.BlipShown(id) {
			t.Fatalf("brute %v: 111 m from a blip of 100 m: still shown", brute)
		}
	}
}

// A scope whose grid empties is pruned; its grid made again later gets a
// new cache, not the old grid's boxes: a pickup created, while nobody was
// there, after every pickup of a private scope was deleted is shown to the
// player who comes back.
func TestCacheFollowsAScopesNewGrid(t *testing.T) {
	f := newFixture(t, nil)
	sc := grid.Scope{World: 7}
	p, c := f.join()
	f.spawnIn(p, c, at(0, 0), sc)
	first := f.pickup(PickupParams{Pos: at(5, 0), Scope: sc})
	pass := func() {
		for range 4 { // the box is built on its third query
			invalidateAll([]*Player{p})
			f.advance(tick)
			c.take()
		}
	}
	pass()
	if !p.PickupShown(first) {
		t.Fatal("the first pickup is not shown")
	}
	if st := f.w.CacheStats()[cachePickups]; st.Builds == 0 {
		t.Fatalf("no box built: %+v", st)
	}
	f.spawnIn(p, c, at(0, 0), grid.Scope{}) // away: no query of sc meanwhile
	pass()
	held := f.w.CacheStats()[cachePickups]
	if err := f.w.DeletePickup(first); err != nil {
		t.Fatal(err)
	}
	if f.w.pickupGrid.Lookup(sc) != nil {
		t.Fatal("the empty grid was not pruned")
	}
	second := f.pickup(PickupParams{Pos: at(6, 0), Scope: sc})
	f.spawnIn(p, c, at(0, 0), sc)
	pass()
	if p.PickupShown(first) || !p.PickupShown(second) {
		t.Fatalf("shown: first %v (deleted), second %v (new)", p.PickupShown(first), p.PickupShown(second))
	}
	// The counters are /metrics counters: the old cache's stay counted,
	// and the new cache built a box of its own.
	after := f.w.CacheStats()[cachePickups]
	if after.Queries <= held.Queries || after.Builds <= held.Builds || after.Grid < held.Grid {
		t.Errorf("counters did not grow from the dropped cache's when the scope's cache was made again: %+v, then %+v", held, after)
	}
}
