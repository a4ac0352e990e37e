package stream

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"dlmp/internal/threadcpu"
)

// BenchmarkPatchColdViews: object views' steps as in issue 4's tick, each
// view's table cold when its step comes (2000 views of 1000 shown, 32 MB
// of tables or more, stepped in turn): a step hides k shown ids and shows
// k new ones at random distances, all within the budget (uniform: k = 67,
// ~135 ops a step; hot spots: k = 137, ~274). It measures View.Patch
// alone (the table's look-ups and updates, the shows' sort): run it in
// this tree and in a base tree for the comparison (docs/benchmarks/
// world10-obj.md). cpu-ns/step is the thread's CPU time (the machine is
// shared), and includes picking the step's ids (~1 µs).
func BenchmarkPatchColdViews(b *testing.B) {
	const views, shown = 2000, 1000
	for _, c := range []struct {
		name string
		k    int
	}{{"uniform", 67}, {"hot", 137}} {
		b.Run(c.name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(41, 42))
			next := uint32(0)
			fresh := func() uint32 { next++; return scatter(next) } // never the same id twice
			vs := make([]*View, views)
			ids := make([][]uint32, views)
			for i := range vs {
				ws := make([]Want, shown)
				for j := range ws {
					ws[j] = Want{ID: fresh(), Rev: 1, Dist2: rng.Float32() * 1e4}
					ids[i] = append(ids[i], ws[j].ID)
				}
				vs[i] = New(Objects.Limit())
				vs[i].Reconcile(ws, Unlimited, HidesFirst, nil)
			}
			hide, show := make([]uint32, c.k), make([]Want, c.k)
			out := make([]Op, 0, 2*c.k)
			i := 0
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			cpu0 := threadcpu.Spent()
			for b.Loop() {
				v, list := vs[i], ids[i]
				for j := range c.k {
					x := rng.IntN(len(list) - j)
					list[x], list[len(list)-1-j] = list[len(list)-1-j], list[x]
					hide[j] = list[len(list)-1-j]
				}
				for j := range c.k {
					show[j] = Want{ID: fresh(), Rev: 1, Dist2: rng.Float32() * 1e4}
					list[len(list)-c.k+j] = show[j].ID
				}
				var ok bool
				if out, ok = v.Patch(v.Len(), v.sum, hide, show, Unlimited, HidesFirst, out[:0]); !ok || len(out) != 2*c.k {
					b.Fatalf("patch refused or short: %v, %d ops", ok, len(out))
				}
				i = (i + 1) % views
			}
			b.ReportMetric(float64((threadcpu.Spent()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/step")
		})
	}
}

// scatter is a bijection of 32 bits (xorshift-multiply), spreading
// consecutive counts over the ids.
func scatter(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	return x ^ x>>16
}
