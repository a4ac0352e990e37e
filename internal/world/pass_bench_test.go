package world

import (
	"dlmp/internal/threadcpu"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// The engine's streaming passes over the load (entityWorld: 1000
// players, 1,000,000 objects, 100,000 pickups, 1000 vehicles, 50,000
// labels, 10,000 blips, 5,000 gang zones), measured as the engine runs them:
// through World.Packet and World.Tick, every kind by the world's own code.
// Times are CPU time of the benchmark's thread (`internal/threadcpu`: CLOCK_THREAD_CPUTIME_ID):
// on this shared machine wall time also counts the waiting. The brute-force
// baseline (World.bruteForce: every object, pickup, label, blip and zone
// scanned) runs on the same world, in the same benchmark.

var modes = []struct {
	name  string
	brute bool
}{{"grid", false}, {"brute", true}}

// invalidate makes every view of every player due: the cold pass, what
// 1000 players landing in the same tick cost.
func invalidate(ms []mover) {
	for _, m := range ms {
		m.p.pickAnchor.Invalidate()
		m.p.ent.playerAt.Invalidate()
		m.p.ent.vehicleAt.Invalidate()
		m.p.ent.objectAt.Invalidate()
		m.p.prims.due = time.Time{}
		m.p.prims.zoneAnchor.Invalidate()
	}
}

// sentTo counts the reliable packets every player was sent.
func sentTo(ms []mover) int {
	n := 0
	for _, m := range ms {
		n += m.p.conn.(*nullConn).sent
	}
	return n
}

// passCounts is what the world counts of its passes: player, vehicle and
// object views, then labels, checkpoints, blips, zones, colshapes.
type passCounts [3 + primKinds]uint64

func countPasses(w *World) passCounts {
	var c passCounts
	copy(c[:3], w.ents.passes[:])
	copy(c[3:], w.prims.passes[:])
	return c
}

var passUnits = [...]string{"player", "vehicle", "object", "label", "checkpoint", "blip", "zone", "colshape"}

// reportPasses reports the views computed per unit of work (a tick, a
// pass), of the kinds that ran any.
func reportPasses(b *testing.B, before, after passCounts, per float64, unit string) {
	for i := range after {
		if n := after[i] - before[i]; n > 0 {
			b.ReportMetric(float64(n)/per, passUnits[i]+"-views/"+unit)
		}
	}
}

// cpuMeter keeps the thread CPU time of each measured tick.
type cpuMeter struct{ ticks []time.Duration }

// run measures f in CPU time of the calling thread, locked to it.
func (m *cpuMeter) run(f func()) {
	c := threadcpu.Spent()
	f()
	m.ticks = append(m.ticks, threadcpu.Spent()-c)
}

// report gives the mean per tick (and per op, ops ticks each), and the
// 99th percentile and worst tick: a spike shows there, not in the mean.
func (m *cpuMeter) report(b *testing.B, perOp int) {
	if len(m.ticks) == 0 {
		return
	}
	var sum time.Duration
	for _, d := range m.ticks {
		sum += d
	}
	s := slices.Clone(m.ticks)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	mean := sum / time.Duration(len(s))
	b.ReportMetric(ms(mean), "cpu-ms/tick")
	if perOp > 1 {
		b.ReportMetric(ms(mean)*float64(perOp), "cpu-ms/op")
	}
	b.ReportMetric(ms(s[(len(s)-1)*99/100]), "p99-cpu-ms/tick")
	b.ReportMetric(ms(s[len(s)-1]), "max-cpu-ms/tick")
}

// BenchmarkFullPass: the full pass, every view of 1000 players computed
// again in one tick (objects, pickups, players, vehicles, labels,
// checkpoints, blips, zones, colshapes: the wanted sets and their diff; the
// views are full and nothing moved, so no packet results), three ways:
//
//   - cached: with the box caches warm, the steady state of a server (the
//     once-a-second passes of players who stand or move little). Before the
//     measured passes it runs passes until one builds no box and reports
//     that warm-up: warm-passes, warm-cpu-ms (all of them), cache-MB (the
//     heap the boxes took);
//   - moved: as cached, but before each pass (not timed) every player syncs
//     a point 1 cm from the last (alternating sides): no answer can be
//     repeated (decision 0215 repeats only a query at the same point), so
//     every view is answered from its box's band, as for players who shift
//     a little between passes. A view may change at an edge: the packets
//     sent are reported, not refused;
//   - cold: every box dropped before each pass (what a pass costs when
//     nothing is cached: the boxes are not built on a first query);
//   - brute: a scan of every entity (World.bruteForce), the baseline.
func BenchmarkFullPass(b *testing.B) {
	for _, l := range layouts {
		var (
			w   *World
			ms  []mover
			now = t0.Add(time.Second)
		)
		for _, mode := range []string{"cached", "moved", "cold", "brute"} {
			b.Run(l.name+"/"+mode, func(b *testing.B) {
				if w == nil { // built once per layout, only if a sub-benchmark of it runs
					w, ms = entityWorld(b, 1_000_000, 100_000, 1000, l.hot)
				}
				w.bruteForce = mode == "brute"
				defer func() { w.bruteForce = false }()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				pass := func() {
					invalidate(ms)
					now = now.Add(tick)
					w.Tick(now)
				}
				var shift float32 = 0.005
				var sync wire.PlayerSync
				shiftPlayers := func() { // untimed: only the pass is measured
					shift = -shift
					for i := range ms {
						m := &ms[i]
						m.seq++
						sync = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: m.pos.X + shift, Y: m.pos.Y, Z: m.pos.Z, Health: 100}
						w.Packet(m.p, &sync, now)
					}
				}
				var warm struct {
					passes int
					cpu    time.Duration
					mb     float64
				}
				if mode == "cached" || mode == "moved" {
					w.resetCaches()
					h0, cpu0 := heap(), threadcpu.Spent()
					warmPass := pass
					if mode == "moved" {
						warmPass = func() { shiftPlayers(); pass() }
					}
					warm.passes = warmCaches(w, warmPass)
					warm.cpu, warm.mb = threadcpu.Spent()-cpu0, float64(heap()-h0)/1e6
				}
				var m cpuMeter
				before, sent, steady, stats := countPasses(w), sentTo(ms), w.caches.steady, w.CacheStats()
				vsteady := w.caches.vehicleSteady
				b.ReportAllocs()
				for b.Loop() {
					switch mode {
					case "cold":
						w.resetCaches()
					case "moved":
						shiftPlayers()
					}
					m.run(pass)
				}
				if n := sentTo(ms) - sent; mode == "moved" {
					b.ReportMetric(float64(n)/float64(b.N), "sent/pass")
				} else if n != 0 {
					b.Fatalf("a full pass over unchanged views sent %d packets", n)
				}
				m.report(b, 1)
				reportPasses(b, before, countPasses(w), float64(b.N), "pass")
				if mode == "cached" || mode == "moved" { // after the loop: b.Loop's first call resets reported metrics
					b.ReportMetric(float64(warm.passes), "warm-passes")
					b.ReportMetric(float64(warm.cpu)/1e6, "warm-cpu-ms")
					b.ReportMetric(warm.mb, "cache-MB")
				}
				reportSteps(b, stats, w.CacheStats(), float64(b.N), "pass")
				if n := w.caches.vehicleSteady - vsteady; n > 0 {
					b.ReportMetric(float64(n)/float64(b.N), "vehicle-steady/pass")
				}
				after := w.CacheStats()
				var grid uint64
				for k, name := range cacheNames {
					if n := w.caches.steady[k] - steady[k]; n > 0 {
						b.ReportMetric(float64(n)/float64(b.N), name+"-steady/pass")
					}
					if n := after[k].Repeats - stats[k].Repeats; n > 0 {
						b.ReportMetric(float64(n)/float64(b.N), name+"-repeats/pass")
					}
					grid += after[k].Grid - stats[k].Grid
				}
				if mode != "brute" {
					b.ReportMetric(float64(grid)/float64(b.N), "grid-answers/pass") // queries no box answered
				}
			})
		}
	}
}

var cacheNames = [cacheKinds]string{"object", "pickup", "label", "blip", "zone"}

// warmCaches runs passes until three in a row build no box nor part (a box
// is built on its third query) and returns how many it ran (at most 200).
func warmCaches(w *World, pass func()) int {
	built := func() uint64 {
		var n uint64
		for _, s := range w.CacheStats() {
			n += s.Builds + s.Parts
		}
		return n
	}
	quiet := 0
	for i := 1; i <= 200; i++ {
		n := built()
		pass()
		if quiet++; built() != n {
			quiet = 0
		}
		if quiet == 3 {
			return i
		}
	}
	return 200
}

// runFor is how many ticks a player runs before its first object anchor is
// due again (ObjectRequery at 7 m/s).
var runFor = int(ObjectRequery/(7*tick.Seconds())) + 1

// warmUp runs the players until their anchors fall due on different ticks,
// as in play (players do not all start running in the same tick): player i
// stands for i mod runFor ticks, then runs; then one more second.
func warmUp(w *World, ms []mover, now time.Time) time.Time {
	for i := range ms {
		ms[i].wait = i % runFor
	}
	var s wire.PlayerSync
	for range runFor + int(time.Second/tick) {
		now = now.Add(tick)
		step(w, ms, now, &s)
	}
	return now
}

// BenchmarkIncremental: one tick of 1000 players running at 7 m/s, a
// PlayerSync each at 20 Hz, the world streaming what is due (objects every
// 16 m, pickups, players and vehicles every 4 m, labels, blips and
// checkpoints every second, zones every 64 m), the shows and hides sent,
// the moves. Run at least 200 ticks (-benchtime 200x): the views fall due
// every 11 to 46 ticks.
func BenchmarkIncremental(b *testing.B) {
	for _, l := range layouts {
		var (
			w   *World
			ms  []mover
			now = t0.Add(time.Second)
		)
		for _, mode := range modes {
			b.Run(l.name+"/"+mode.name, func(b *testing.B) {
				if w == nil {
					w, ms = entityWorld(b, 1_000_000, 100_000, 1000, l.hot)
					now = warmUp(w, ms, now)
				}
				w.bruteForce = mode.brute
				defer func() { w.bruteForce = false }()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var s wire.PlayerSync
				var m cpuMeter
				before, stats, prims := countPasses(w), w.CacheStats(), primCounts(w)
				b.ReportAllocs()
				for b.Loop() {
					now = now.Add(tick)
					m.run(func() { step(w, ms, now, &s) })
				}
				m.report(b, 1)
				reportPasses(b, before, countPasses(w), float64(b.N), "tick")
				reportSteps(b, stats, w.CacheStats(), float64(b.N), "tick")
				reportPrims(b, prims, primCounts(w), float64(b.N), "tick")
			})
		}
	}
}

// BenchmarkIncrementalAt50Hz: BenchmarkIncremental's world and players on
// a server ticking at its default 50 Hz while the players sync at 20 Hz
// (decision 0423): each 20 ms tick, the 2 players in 5 whose sync falls in
// it send one, a step of 50 ms of running as in BenchmarkIncremental. A
// tick here is the server's streaming work per tick as it runs by default;
// a second of play is 50 of them against 20 of BenchmarkIncremental's.
func BenchmarkIncrementalAt50Hz(b *testing.B) {
	const hz = 50
	for _, l := range layouts {
		b.Run(l.name+"/grid", func(b *testing.B) {
			w, ms := entityWorldAt(b, hz, 1_000_000, 100_000, 1000, l.hot)
			now := warmUp(w, ms, t0.Add(time.Second))
			var s wire.PlayerSync
			k := 0
			for range 2 * hz { // two seconds at 50 Hz: every view on its own ticks
				now = now.Add(time.Second / hz)
				stepSyncing(w, ms, k, now, &s)
				k++
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var m cpuMeter
			before, stats, prims := countPasses(w), w.CacheStats(), primCounts(w)
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(time.Second / hz)
				m.run(func() { stepSyncing(w, ms, k, now, &s) })
				k++
			}
			m.report(b, 1)
			reportPasses(b, before, countPasses(w), float64(b.N), "tick")
			reportSteps(b, stats, w.CacheStats(), float64(b.N), "tick")
			reportPrims(b, prims, primCounts(w), float64(b.N), "tick")
		})
	}
}

// syncsIn50HzTick reports whether player i's 20 Hz sync falls in the 50 Hz
// tick k: (2k + i) % 5 < 2, two ticks in five for each player, 400 of 1000
// a tick.
func syncsIn50HzTick(k, i int) bool { return (2*k+i)%5 < 2 }

// stepSyncing runs the 50 Hz tick k: the players whose sync falls in it
// (syncsIn50HzTick) move a step and sync, as step does for all, then the
// world ticks.
func stepSyncing(w *World, ms []mover, k int, now time.Time, s *wire.PlayerSync) {
	for i := range ms {
		if syncsIn50HzTick(k, i) {
			step1(w, &ms[i], now, s)
		}
	}
	w.Tick(now)
}

// primCounter is what the world counts of its primitive and vehicle views'
// shortcuts.
type primCounter [6]uint64

var primCounterNames = [...]string{"prim-steps", "blip-ring-steps", "blip-ring-builds", "prim-holds", "vehicle-steady", "vehicle-steps"}

func primCounts(w *World) primCounter {
	pr := &w.prims
	return primCounter{pr.steps, pr.ringSteps, pr.ringBuilds, pr.holds + pr.blipHolds, w.caches.vehicleSteady, pr.vehicleSteps}
}

// reportPrims reports the primitive views' steps, ring steps, ring builds
// and holds per unit of work.
func reportPrims(b *testing.B, before, after primCounter, per float64, unit string) {
	for i := range after {
		if n := after[i] - before[i]; n > 0 {
			b.ReportMetric(float64(n)/per, primCounterNames[i]+"/"+unit)
		}
	}
}

// churn is the gamemode's share of a second of play: every tick 50 objects
// and 10 pickups moved and 5 labels changed; once a second a blip and a
// gang zone changed (their color: in place).
type churn struct {
	w       *World
	objects []uint32
	pickups []uint32
	labels  []uint32
	blips   []uint32
	zones   []uint32
	n       int
}

func newChurn(w *World) *churn {
	c := &churn{w: w}
	n := int(w.ents.nextObject) // ids 1..n, none deleted
	for i := range min(n, 5000) {
		c.objects = append(c.objects, uint32(i*197%n+1))
	}
	for id := range w.pickups {
		if c.pickups = append(c.pickups, id); len(c.pickups) == 1000 {
			break
		}
	}
	for id := range w.prims.labels {
		if c.labels = append(c.labels, id); len(c.labels) == 500 {
			break
		}
	}
	for id := range w.prims.blips {
		if c.blips = append(c.blips, id); len(c.blips) == 50 {
			break
		}
	}
	for id := range w.prims.zones {
		if c.zones = append(c.zones, id); len(c.zones) == 50 {
			break
		}
	}
	return c
}

// tick makes this tick's changes.
func (c *churn) tick(tb testing.TB) {
	w, n := c.w, c.n
	c.n++
	for i := range 50 {
		id := c.objects[(n*50+i)%len(c.objects)]
		o := w.ents.objects.at(id)
		pos, rot := w.currentPose(o)
		pos.Z += 0.01
		if err := w.SetObjectPose(id, pos, rot); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range 10 {
		id := c.pickups[(n*10+i)%len(c.pickups)]
		pos := w.pickups[id].pos
		pos.Z += 0.01
		if err := w.MovePickup(id, pos); err != nil {
			tb.Fatal(err)
		}
	}
	for i := range 5 {
		id := c.labels[(n*5+i)%len(c.labels)]
		lp := w.prims.labels[id].params
		lp.Text = fmt.Sprintf("shop %d", n)
		if err := w.SetLabel(id, lp); err != nil {
			tb.Fatal(err)
		}
	}
	if n%int(time.Second/tick) == 7 {
		id := c.blips[n%len(c.blips)]
		bp := w.prims.blips[id].params
		bp.Color ^= 0x00FF00
		if err := w.SetBlip(id, bp); err != nil {
			tb.Fatal(err)
		}
		id = c.zones[n%len(c.zones)]
		zp := w.prims.zones[id].params
		zp.Color ^= 0x00FF00
		if err := w.SetGangZone(id, zp); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkSecondOfPlay: one second (20 ticks) of the engine in play, the
// real per-second streaming cost: 1000 players running at 7 m/s, a
// PlayerSync each per tick, and the gamemode changing entities (churn);
// every pass as the tick runs it, the packets sent.
func BenchmarkSecondOfPlay(b *testing.B) {
	perSecond := int(time.Second / tick)
	for _, l := range layouts {
		b.Run(l.name, func(b *testing.B) {
			w, ms := entityWorld(b, 1_000_000, 100_000, 1000, l.hot)
			now := warmUp(w, ms, t0.Add(time.Second))
			c := newChurn(w)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var s wire.PlayerSync
			var m cpuMeter
			before := countPasses(w)
			b.ReportAllocs()
			for b.Loop() {
				for range perSecond {
					now = now.Add(tick)
					m.run(func() { c.tick(b); step(w, ms, now, &s) })
				}
			}
			m.report(b, perSecond)
			reportPasses(b, before, countPasses(w), float64(b.N), "s")
		})
	}
}
