package stream

import (
	"dlmp/internal/threadcpu"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"dlmp/internal/grid"
)

// The scale benchmarks. The world (1.165 M entities) is built once per test
// binary run and shared; building it is not timed.

var bigWorld = sync.OnceValue(func() *world { return buildWorld(1) })

// Re-query thresholds of the incremental tick, per kind (meters): see
// docs/decisions/0051-view-reconcile.md.
var thresholds = [...]float32{Objects: 10, Pickups: 10, Labels: 5, Blips: 50, GangZones: 100}

const (
	tickBudget = 64  // ops per view per tick in the incremental benchmark
	walkR      = 20  // players walk around circles of this radius
	step       = 0.5 // meters per tick (10 m/s at 20 Hz)
	bruteEvery = 50  // the brute force runs on every 50th player, scaled ×50
)

type viewer struct {
	center  grid.Vec
	phase   float64
	pos     grid.Vec
	views   []*View
	anchors []Anchor
	boxes   []*grid.Box // per kind: the box of the last cached query
	at      []grid.Vec  // per kind: where the view's wanted set was last computed
	cuts    []uint64    // per kind: the cut of that answer (grid.CutOf)
	shells  []grid.Shell
}

func (v *viewer) walk() {
	v.phase += step / walkR
	v.pos = grid.Vec{X: v.center.X + walkR*float32(math.Cos(v.phase)), Y: v.center.Y + walkR*float32(math.Sin(v.phase)), Z: v.center.Z}
}

// newViewers places the players and fills their views (unlimited budget).
func newViewers(w *world, ps []grid.Vec, s *scratch) []*viewer {
	rng := rand.New(rand.NewPCG(3, 3))
	vs := make([]*viewer, len(ps))
	for i, p := range ps {
		v := &viewer{center: p, phase: rng.Float64() * 2 * math.Pi}
		v.walk()
		for k, kw := range w.kinds {
			view := New(kw.spec.kind.Limit())
			w.wantedGrid(k, v.pos, s)
			s.ops = view.Reconcile(s.wanted, Unlimited, HidesFirst, s.ops[:0])
			v.views = append(v.views, view)
			v.boxes = append(v.boxes, nil)
			v.at = append(v.at, v.pos)
			v.cuts = append(v.cuts, w.cutOf(k, s.hits))
			v.shells = append(v.shells, grid.Shell{})
			// Stagger the anchors, so that players are not all due on the same tick.
			t := thresholds[kw.spec.kind]
			a := rng.Float64() * 2 * math.Pi
			d := float32(rng.Float64()) * t
			var an Anchor
			an.Mark(grid.Vec{X: v.pos.X + d*float32(math.Cos(a)), Y: v.pos.Y + d*float32(math.Sin(a)), Z: v.pos.Z})
			v.anchors = append(v.anchors, an)
		}
		vs[i] = v
	}
	// Reconcile players in cell order, so that neighbours reuse the cells
	// (and their cache lines) the previous one read.
	key := func(v *viewer) int {
		cell := func(c float32) int { return int((c + grid.Bound) / 64) }
		return cell(v.center.Y)<<16 | cell(v.center.X)
	}
	slices.SortFunc(vs, func(a, b *viewer) int { return key(a) - key(b) })
	return vs
}

var layouts = []struct {
	name      string
	clustered bool
}{{"uniform", false}, {"clustered", true}}

// BenchmarkFullPass recomputes every view of every player (5 kinds) against
// the static world, in steady state (the views already hold their sets, so
// the diff finds nothing to send), with the grid and with brute force.
func BenchmarkFullPass(b *testing.B) {
	w := bigWorld()
	for _, l := range layouts {
		s := new(scratch)
		vs := newViewers(w, w.placePlayers(7, l.clustered), s)
		b.Run(l.name+"/grid", func(b *testing.B) {
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := threadcpu.Spent()
			for b.Loop() {
				for _, v := range vs {
					for k := range w.kinds {
						w.wantedGrid(k, v.pos, s)
						if s.ops = v.views[k].Reconcile(s.wanted, Unlimited, HidesFirst, s.ops[:0]); len(s.ops) != 0 {
							b.Fatalf("steady pass sent %d ops", len(s.ops))
						}
					}
				}
			}
			reportPass(b, 1, threadcpu.Spent()-cpu0)
		})
		// cached: the steady pass over built boxes. It first drops every box
		// and reports what building them again took (warm-*: the passes
		// until one builds nothing, their CPU time, the caches' heap).
		// cached-cold: every box dropped before each pass, which then goes
		// to the grid (a box is built on its third query).
		for _, cold := range []bool{false, true} {
			name := l.name + "/cached"
			if cold {
				name += "-cold"
			}
			b.Run(name, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				for _, kw := range w.kinds {
					kw.cache.Reset()
				}
				h0, cpu0 := heap(), threadcpu.Spent()
				passes := w.warm(vs, s)
				warmCPU, cacheMB := threadcpu.Spent()-cpu0, float64(heap()-h0)/1e6
				b.ReportAllocs()
				cpu0 = threadcpu.Spent()
				for b.Loop() {
					if cold {
						for _, kw := range w.kinds {
							kw.cache.Reset()
						}
					}
					for _, v := range vs {
						for k := range w.kinds {
							if w.reconcileCached(k, v.pos, v.views[k], &v.boxes[k], Unlimited, s); len(s.ops) != 0 {
								b.Fatalf("steady pass sent %d ops", len(s.ops))
							}
						}
					}
				}
				reportPass(b, 1, threadcpu.Spent()-cpu0)
				if !cold {
					b.ReportMetric(float64(warmCPU.Nanoseconds())/1e6, "warm-cpu-ms")
					b.ReportMetric(float64(passes), "warm-passes")
					b.ReportMetric(cacheMB, "cache-MB")
				}
			})
		}
		b.Run(l.name+"/brute", func(b *testing.B) {
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := threadcpu.Spent()
			for b.Loop() {
				for i := 0; i < len(vs); i += bruteEvery {
					v := vs[i]
					for k := range w.kinds {
						w.wantedBrute(k, v.pos, s)
						if s.ops = v.views[k].Reconcile(s.wanted, Unlimited, HidesFirst, s.ops[:0]); len(s.ops) != 0 {
							b.Fatalf("brute force and grid disagree: %d ops", len(s.ops))
						}
					}
				}
			}
			reportPass(b, bruteEvery, threadcpu.Spent()-cpu0)
		})
	}
}

// warm runs cached full passes until one builds nothing (boxes are built
// on their third query, as fast as the caches' credit allows) and returns
// how many it ran.
func (w *world) warm(vs []*viewer, s *scratch) int {
	for pass := 1; pass <= 100; pass++ {
		var before uint64
		for _, kw := range w.kinds {
			st := kw.cache.Stats()
			before += st.Builds + st.Parts + st.Grid + st.Fallbacks
		}
		for _, v := range vs {
			for k := range w.kinds {
				w.reconcileCached(k, v.pos, v.views[k], &v.boxes[k], Unlimited, s)
			}
		}
		var after uint64
		for _, kw := range w.kinds {
			st := kw.cache.Stats()
			after += st.Builds + st.Parts + st.Grid + st.Fallbacks
		}
		if after == before {
			return pass
		}
	}
	return 100
}

// reportPass reports wall and thread-CPU milliseconds per full pass of all
// players (scaled from the sample) and CPU nanoseconds per player.
func reportPass(b *testing.B, scale float64, cpu time.Duration) {
	ms := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / 1e6 * scale
	cms := float64(cpu.Nanoseconds()) / float64(b.N) / 1e6 * scale
	b.ReportMetric(ms, "ms/pass")
	b.ReportMetric(cms, "cpu-ms/pass")
	b.ReportMetric(cms*1e6/players, "cpu-ns/player")
}

// BenchmarkTick moves every player 0.5 m (one 20 Hz tick) and reconciles
// what could have changed: the views whose anchor is due (moved past the
// kind's threshold) are queried and reconciled, the others with ops pending
// only flush them. The baseline "every" re-queries every view on every tick.
// Budget: 64 ops per view per tick.
func BenchmarkTick(b *testing.B) {
	w := bigWorld()
	for _, l := range layouts {
		for _, mode := range []string{"anchored", "diff", "shell", "cached", "every"} {
			b.Run(l.name+"/"+mode, func(b *testing.B) {
				s := new(scratch)
				vs := newViewers(w, w.placePlayers(7, l.clustered), s)
				for _, kw := range w.kinds {
					kw.cache.Reset() // cached: boxes start empty, whatever ran before
				}
				b.ReportAllocs()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := threadcpu.Spent()
				var worst time.Duration
				requeries, listed := 0, 0
				var spent [5]time.Duration // per kind: wall time of the re-queries
				var count, shellSteps, shellBand [5]int
				for b.Loop() {
					t0 := time.Now()
					for _, v := range vs {
						v.walk()
						for k, kw := range w.kinds {
							an := &v.anchors[k]
							if mode != "every" && !an.Due(v.pos, thresholds[kw.spec.kind]) {
								if v.views[k].Pending() > 0 {
									s.ops = v.views[k].Flush(tickBudget, HidesFirst, s.ops[:0])
								}
								continue
							}
							an.Mark(v.pos)
							requeries++
							count[k]++
							t1 := time.Now()
							if mode == "cached" {
								w.reconcileCached(k, v.pos, v.views[k], &v.boxes[k], tickBudget, s)
								continue
							}
							if mode == "diff" || mode == "shell" {
								sk := float32(0)
								if mode == "shell" {
									sk = skin
								}
								if !w.reconcileDiff(k, v, sk, tickBudget, s) {
									listed++
								} else if s.step.Shell {
									shellSteps[k]++
									shellBand[k] += v.shells[k].Band()
								}
							} else {
								w.wantedGrid(k, v.pos, s)
								s.ops = v.views[k].Reconcile(s.wanted, tickBudget, HidesFirst, s.ops[:0])
							}
							spent[k] += time.Since(t1)
						}
					}
					worst = max(worst, time.Since(t0))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/tick")
				b.ReportMetric(float64((threadcpu.Spent()-cpu0).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/tick")
				b.ReportMetric(float64(worst.Nanoseconds())/1e6, "max-ms/tick")
				b.ReportMetric(float64(requeries)/float64(b.N), "views/tick")
				if mode == "diff" || mode == "shell" {
					b.ReportMetric(float64(listed)/float64(b.N), "listed/tick")
				}
				for k, kw := range w.kinds {
					if count[k] > 0 && mode != "cached" {
						b.ReportMetric(float64(spent[k].Microseconds())/float64(count[k]), "us/"+metric(kw.spec.kind))
						b.ReportMetric(float64(count[k])/float64(b.N), metric(kw.spec.kind)+"s/tick")
						if mode == "shell" {
							b.ReportMetric(float64(shellSteps[k])/float64(count[k]), "shell-share/"+metric(kw.spec.kind))
							b.ReportMetric(float64(shellBand[k])/float64(max(shellSteps[k], 1)), "shell-band/"+metric(kw.spec.kind))
						}
					}
				}
			})
		}
	}
}

// BenchmarkMemory reports the heap bytes per indexed entity (the grid alone,
// as built by inserts and after Compact) and per player view (table, struct
// and leftover buffers, clustered players), per kind, from runtime.MemStats.
func BenchmarkMemory(b *testing.B) {
	w := bigWorld()
	ps := w.placePlayers(7, true)
	for b.Loop() {
		for _, kw := range w.kinds {
			before := heap()
			g := grid.New(kw.spec.cell)
			for i, p := range kw.pos {
				g.Insert(uint32(i), p, float32(math.Sqrt(float64(kw.r2[i]))))
			}
			b.ReportMetric(float64(heap()-before)/float64(len(kw.pos)), "B/"+metric(kw.spec.kind))
			g.Compact()
			b.ReportMetric(float64(heap()-before)/float64(len(kw.pos)), "B/"+metric(kw.spec.kind)+"-compact")
			runtime.KeepAlive(g)
		}
		s := new(scratch)
		for k, kw := range w.kinds {
			before := heap()
			views := make([]*View, len(ps))
			for i, p := range ps {
				views[i] = New(kw.spec.kind.Limit())
				w.wantedGrid(k, p, s)
				s.ops = views[i].Reconcile(s.wanted, Unlimited, HidesFirst, s.ops[:0])
			}
			b.ReportMetric(float64(heap()-before)/float64(len(ps)), "B/view-"+metric(kw.spec.kind))
			runtime.KeepAlive(views)
		}
	}
}

func metric(k Kind) string {
	return map[Kind]string{Objects: "object", Pickups: "pickup", Labels: "label", Blips: "blip", GangZones: "zone"}[k]
}

func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkPlayer splits the grid pass by kind: one player's query and
// steady reconcile, averaged over all players.
func BenchmarkPlayer(b *testing.B) {
	w := bigWorld()
	for _, l := range layouts {
		s := new(scratch)
		vs := newViewers(w, w.placePlayers(7, l.clustered), s)
		for k, kw := range w.kinds {
			for _, cached := range []bool{false, true} {
				name := l.name + "/" + metric(kw.spec.kind)
				if cached {
					name += "-cached"
				}
				b.Run(name, func(b *testing.B) {
					if cached {
						w.warm(vs, s) // build the boxes: not timed
					}
					b.ReportAllocs()
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					cpu0 := threadcpu.Spent()
					i, band := 0, 0
					for b.Loop() {
						v := vs[i%len(vs)]
						i++
						if cached {
							w.reconcileCached(k, v.pos, v.views[k], &v.boxes[k], Unlimited, s)
							band += len(s.hits)
							continue
						}
						w.wantedGrid(k, v.pos, s)
						s.ops = v.views[k].Reconcile(s.wanted, Unlimited, HidesFirst, s.ops[:0])
					}
					b.ReportMetric(float64((threadcpu.Spent()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/player")
					if cached {
						b.ReportMetric(float64(band)/float64(b.N), "band-hits")
					} else {
						b.ReportMetric(float64(len(s.wanted)), "wanted")
					}
				})
			}
		}
	}
}
