package world

import (
	"math/rand/v2"
	"slices"
	"testing"

	"dlmp/internal/stream"
)

// BenchmarkPrimShows is a pass's shows of gang zones and of blips sent to
// one viewer (sendZoneOps, sendBlipOps): 24 of each, drawn from a world of
// 5,000 zones and 10,000 blips. -cold sweeps the caches before each pass,
// as a tick finds them after the other players' passes and the flush of
// their datagrams: each show then reads its map entry and its zone or blip
// from memory.
func BenchmarkPrimShows(b *testing.B) {
	w, ms := primsWorld(b, 0, 10_000, 5000, 1)
	p := ms[0].p
	p.prims.init()
	r := rand.New(rand.NewPCG(1, 434))
	shows := func(ids []uint32) []stream.Op {
		slices.Sort(ids)
		var ops []stream.Op
		for _, i := range r.Perm(len(ids))[:24] {
			ops = append(ops, stream.Op{ID: ids[i], Show: true})
		}
		return ops
	}
	var zones, blips []uint32
	for id := range w.prims.zones {
		zones = append(zones, id)
	}
	for id, bl := range w.prims.blips {
		if !bl.attached() {
			blips = append(blips, id)
		}
	}
	kinds := []struct {
		name string
		ops  []stream.Op
		send func(*Player)
	}{{"zones", shows(zones), w.sendZoneOps}, {"blips", shows(blips), w.sendBlipOps}}
	sweep := make([]byte, coldSweep)
	for _, k := range kinds {
		for _, cold := range []bool{false, true} {
			name := k.name + "/warm"
			if cold {
				name = k.name + "/cold"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if cold {
						b.StopTimer()
						for i := 0; i < len(sweep); i += 64 {
							sweep[i]++
						}
						b.StartTimer()
					}
					w.prims.ops = append(w.prims.ops[:0], k.ops...)
					k.send(p)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(k.ops)), "ns/show")
			})
		}
	}
}
