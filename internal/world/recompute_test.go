package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/stream"
)

// A view the world leaves alone must be the view computed from scratch:
// after random changes and a tick, every player's views equal what a fresh
// view reconciled from the wanted sets would show. The players stand (at
// the point their views were computed at), so every difference is a change
// that did not reach a view it alters.

// sameView fails the test unless v shows exactly what a fresh view of the
// limit shows after reconciling wants, at the same revs.
func sameView(t *testing.T, what string, v *stream.View, limit int, wants []stream.Want) {
	t.Helper()
	fresh := stream.New(limit)
	ops := fresh.Reconcile(wants, stream.Unlimited, stream.HidesFirst, nil)
	if v.Len() != fresh.Len() {
		t.Fatalf("%s: shows %d, a recompute shows %d", what, v.Len(), fresh.Len())
	}
	for _, op := range ops {
		if rev, ok := v.Shown(op.ID); !ok || rev != op.Rev {
			t.Fatalf("%s: %d shown %v at rev %d, a recompute shows it at rev %d", what, op.ID, ok, rev, op.Rev)
		}
	}
}

// brute returns the wanted set wants computes with w scanning every entity
// (World.bruteForce): the reference, independent of the grids and their box
// caches.
func brute(w *World, wants func() []stream.Want) []stream.Want {
	w.bruteForce = true
	defer func() { w.bruteForce = false }()
	return wants()
}

func TestObjectViewsEqualRecompute(t *testing.T) {
	for seed := range uint64(6) {
		f, r, near := seeded(t, seed, 99)
		var ids []uint32
		for range 2500 { // dense enough that the 1000-object cut falls inside the stream distance
			ids = append(ids, f.object(ObjectParams{Pos: near(120), Distance: float32(50 + r.IntN(300))}))
		}
		var ps []*Player
		for i := range 8 {
			p, c := f.join()
			f.spawnAcked(p, c, at(float32(i*60), float32(i%3*40)))
			ps = append(ps, p)
		}
		f.advance(tick)
		for round := range 60 {
			for range 1 + r.IntN(6) {
				if len(ids) == 0 {
					break
				}
				id := ids[r.IntN(len(ids))]
				o := f.w.Object(id)
				var err error
				switch op := r.IntN(8); {
				case o == nil:
					continue
				case op == 0:
					ids = append(ids, f.object(ObjectParams{Pos: near(200), Distance: float32(30 + r.IntN(400))}))
				case op == 1:
					err = f.w.DeleteObject(id)
				case op == 2:
					err = f.w.SetObjectBroken(id, !o.Broken())
				case op == 3 && o.kind == 0 && len(o.children) == 0:
					err = f.w.AttachObject(id, AttachParams{Kind: KindObject, ID: ids[r.IntN(len(ids))], Offset: grid.Vec{Z: 1}})
				case op == 4 && o.kind != 0:
					err = f.w.DetachObject(id)
				case op == 5 && o.kind == 0 && len(o.children) == 0:
					err = f.w.AttachObject(id, AttachParams{Kind: KindPlayer, ID: uint32(ps[r.IntN(len(ps))].id), Offset: grid.Vec{Z: 1}})
				default:
					if o.kind == 0 {
						err = f.w.SetObjectPose(id, near(200), Rot{})
					}
				}
				_ = err // refusals (a cycle, a broken parent) are part of the game
			}
			f.advance(tick)
			for i, q := range ps {
				sc, c, _ := q.objectCenter()
				if q.objCut.at != c {
					t.Fatalf("seed %d round %d: player %d's view was computed at %v, it stands at %v", seed, round, i, q.objCut.at, c)
				}
				wants := brute(f.w, func() []stream.Want { w, _ := f.w.objectWants(q, sc, c, nil, nil); return w })
				sameView(t, "objects", q.ent.objects, stream.Objects.Limit(), wants)
			}
			for _, p := range ps {
				p.conn.(*testConn).take()
				p.conn.(*testConn).ackAll()
			}
		}
	}
}

func TestPrimViewsEqualRecompute(t *testing.T) {
	for seed := range uint64(6) {
		f, r, near := seeded(t, seed, 7)
		zoneAt := func() ZoneParams {
			c := near(400)
			w, h := float32(10+r.IntN(100)), float32(10+r.IntN(100))
			return ZoneParams{Min: [2]float32{c.X - w, c.Y - h}, Max: [2]float32{c.X + w, c.Y + h}, Color: 0xFF0000, Alpha: 96}
		}
		zones := 300
		if seed%2 == 1 {
			zones = ZoneScanMax + 100 // the grid's nearest-1024 path
		}
		var labels, blips, zs []uint32
		for range 600 {
			labels = append(labels, f.label(LabelParams{Text: "x", Pos: near(150), DrawDistance: float32(20 + r.IntN(200))}))
		}
		for i := range 300 {
			bp := BlipParams{Pos: near(400)}
			if i%3 == 0 {
				bp.DrawDistance = float32(50 + r.IntN(200))
			}
			blips = append(blips, f.blip(bp))
		}
		for range zones {
			id := f.zone(zoneAt())
			if err := f.w.ShowGangZone(id, nil); err != nil {
				t.Fatal(err)
			}
			zs = append(zs, id)
		}
		var ps []*Player
		for i := range 8 {
			p, c := f.join()
			f.spawn(p, c, at(float32(i*40-160), float32(i%3*40)))
			ps = append(ps, p)
		}
		f.slowPass()
		pick := func(s []uint32) uint32 { return s[r.IntN(len(s))] }
		for round := range 60 {
			for range 1 + r.IntN(6) {
				switch r.IntN(12) {
				case 0:
					labels = append(labels, f.label(LabelParams{Text: "new", Pos: near(150), DrawDistance: float32(20 + r.IntN(200))}))
				case 1: // in place
					if l := f.w.Label(pick(labels)); l != nil {
						lp := l.Params()
						lp.Text += "!"
						f.w.SetLabel(l.ID(), lp)
					}
				case 2:
					if l := f.w.Label(pick(labels)); l != nil {
						lp := l.Params()
						lp.Pos = near(150)
						f.w.SetLabel(l.ID(), lp)
					}
				case 3:
					f.w.DeleteLabel(pick(labels))
				case 4:
					blips = append(blips, f.blip(BlipParams{Pos: near(400)}))
				case 5: // in place
					if b := f.w.Blip(pick(blips)); b != nil {
						bp := b.Params()
						bp.Color ^= 0xFF
						f.w.SetBlip(b.ID(), bp)
					}
				case 6:
					if b := f.w.Blip(pick(blips)); b != nil {
						bp := b.Params()
						bp.Pos = near(400)
						f.w.SetBlip(b.ID(), bp)
					}
				case 7:
					f.w.DeleteBlip(pick(blips))
				case 8: // in place: the same center
					if z := f.w.GangZone(pick(zs)); z != nil {
						zp := z.Params()
						zp.Color ^= 0xFF
						zp.Min[0], zp.Max[0] = zp.Min[0]-1, zp.Max[0]+1
						f.w.SetGangZone(z.ID(), zp)
					}
				case 9:
					if z := f.w.GangZone(pick(zs)); z != nil {
						f.w.SetGangZone(z.ID(), zoneAt())
					}
				case 10:
					id := pick(zs)
					var p *Player
					if r.IntN(2) == 0 {
						p = ps[r.IntN(len(ps))]
					}
					if r.IntN(2) == 0 {
						f.w.ShowGangZone(id, p)
					} else {
						f.w.HideGangZone(id, p)
					}
				case 11:
					f.w.DeleteGangZone(pick(zs))
				}
			}
			f.advance(tick)
			for _, q := range ps {
				pr := &f.w.prims
				sameView(t, "labels", q.prims.labels, stream.Labels.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.labelWants(q, pr.wants[:0], nil); return w }))
				sameView(t, "blips", q.prims.blips, stream.Blips.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.blipWants(q, pr.wants[:0], nil); return w }))
				sameView(t, "zones", q.prims.zones, stream.GangZones.Limit(),
					brute(f.w, func() []stream.Want { w, _ := f.w.zoneWants(q, pr.wants[:0], nil); return w }))
				q.conn.(*testConn).take()
				q.conn.(*testConn).ackAll()
			}
			_ = round
		}
	}
}
