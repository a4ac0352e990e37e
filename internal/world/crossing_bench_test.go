package world

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/stream"
	"dlmp/internal/threadcpu"
	"dlmp/internal/wire"
)

// The race's crossing streams (issue 7's load run, session 6): 1000 players
// with a name label each run one line of lineLen meters at 6 m/s, in two
// packs of 500 (packLen × packWidth meters) starting at its two ends and
// running toward the other, each player turning back at the end it
// reaches: the packs pass through each other in the middle, and each pack
// through itself at the ends, as the race's runners do after the finish.
// The calm world is the same packs on two lines 400 m apart (past the
// stream distance), running straight on without turning: each pack sees
// only itself, and nobody's neighbours change.
const (
	lineLen   = 170 // the race line, meters
	packLen   = 50  // meters along the line
	packWidth = 8   // meters across it
)

// crossingMet is the crossing (not calm) run to the packs' first meeting
// (300 ticks, 14 s), its clients given queues (coldTicks): the tick the
// label benchmarks read.
func crossingMet(tb testing.TB) *oneSpot {
	tb.Helper()
	c := newCrossing(tb, false)
	for range 300 {
		c.runLine()
		c.w.Tick(c.now)
	}
	c.coldTicks()
	return c
}

// newCrossing builds the two packs; calm puts the second one's line 400 m
// away from the first, and the players never turn (c.calm).
func newCrossing(tb testing.TB, calm bool) *oneSpot {
	tb.Helper()
	return newCrossingAt(tb, calm, testConfig())
}

// newCrossingAt is newCrossing in a world configured by cfg (its tick
// rate: crowd50_bench_test.go).
func newCrossingAt(tb testing.TB, calm bool, cfg config.Config) *oneSpot {
	tb.Helper()
	w, err := New(cfg, nil, t0)
	if err != nil {
		tb.Fatal(err)
	}
	c := &oneSpot{w: w, r: rand.New(rand.NewPCG(7, 8)), now: t0, calm: calm}
	for i := range 1000 {
		var h wire.ServerHello
		conn := &countConn{tick: &c.ticks}
		p, _ := w.Join(conn, &h)
		x := float32(c.r.Float64() * packLen)
		y := float32((c.r.Float64() - 0.5) * packWidth)
		dx := float32(6 * 0.05)
		if i%2 == 1 { // the second pack, from the other end
			x, dx = lineLen-x, -dx
			if calm {
				y += 400
			}
		}
		pos := grid.Vec{X: x, Y: y, Z: 10}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			tb.Fatal(err)
		}
		if _, err := w.CreateLabel(LabelParams{Text: p.Name(), Color: 0xFFFF80, Pos: grid.Vec{Z: 0.4}, DrawDistance: 40,
			AttachKind: wire.AttachPlayer, AttachID: uint32(p.id)}); err != nil {
			tb.Fatal(err)
		}
		c.ms = append(c.ms, mover{p: p, pos: pos, dx: dx})
		c.conns = append(c.conns, conn)
	}
	return c
}

// runLine moves every player one tick along its line, turning back at its
// ends unless the world is calm, and hands the world its PlayerSync.
func (c *oneSpot) runLine() {
	c.now = c.now.Add(50 * time.Millisecond)
	c.ticks++
	for i := range c.ms {
		c.runMover(&c.ms[i])
	}
}

// runMover moves m one step along its line, turning back at its ends
// unless the world is calm, and hands the world its PlayerSync.
func (c *oneSpot) runMover(m *mover) {
	if !c.calm && (m.pos.X+m.dx < 0 || m.pos.X+m.dx > lineLen) {
		m.dx = -m.dx
	}
	m.pos.X += m.dx
	m.seq++
	c.s = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: m.pos.X, Y: m.pos.Y, Z: m.pos.Z, Health: 100}
	c.w.Packet(m.p, &c.s, c.now)
}

// BenchmarkCrowdCrossing is one tick of the crossing streams, crossing and
// calm (see newCrossing), measured by the thread's clock: tick-mean-ms and
// tick-p99-ms over the ticks (the players' syncs and the world's tick),
// player-ops and label-ops the PlayerShow and Label3D packets sent a tick
// (mean, and p99 of the ticks), client-kb the most bytes of them one
// client was sent in one tick (p99 and max of the ticks: a client's burst),
// views the views of players computed a tick, backlog the views left
// deferred after a tick (mean, p99 and max of the ticks) and wait-max the
// most ticks a deferred view waited (players_budget.go), and what the
// player is not shown of its nearest (as BenchmarkCrowdLabels). Run it at -benchtime
// 800x (40 s of the race: the packs cross three times).
//
// The -cold sub-benchmarks run the server's tick as the load run does
// (coldTicks): each client's critical messages copied into a queue of its
// own, as the lane's Push does, and the caches swept between ticks, as the
// lanes' poll and pack and the socket writes sweep them: every event then
// reads the viewer's and the shown player's data from memory, not from
// the caches the last tick left warm.
func BenchmarkCrowdCrossing(b *testing.B) {
	for _, cold := range []bool{false, true} {
		for _, calm := range []bool{false, true} {
			name := "crossing"
			if calm {
				name = "calm"
			}
			if cold {
				name += "-cold"
			}
			b.Run(name, func(b *testing.B) { benchCrossing(b, calm, cold) })
		}
	}
}

// crossingWarm is how many ticks the crossing benchmarks run before they
// measure: the first views of players and their labels (1000 views of 200
// shows, and their labels, 50 views a tick), out of the measure even when
// a budget of ops spreads them over twice as many ticks (decision 0422).
const crossingWarm = 100

// coldSink is how many bytes of its messages a client's queue holds
// (coldTicks): a lane's queue of critical messages, about a tick of a
// crossing's.
const coldSink = 32 << 10

// coldSweep is how many bytes sweepCaches writes between ticks: more than
// the second level caches and a part of the third, as the flush of 1000
// sessions' datagrams does (~3.5 MB of them a tick in the load run).
const coldSweep = 16 << 20

// coldTicks gives every client a queue its messages are copied into.
func (c *oneSpot) coldTicks() {
	for _, k := range c.conns {
		k.sink = make([]byte, coldSink)
	}
	c.sweep = make([]byte, coldSweep)
}

// sweepCaches writes a line of every 64 bytes of the sweep buffer.
func (c *oneSpot) sweepCaches() {
	for i := 0; i < len(c.sweep); i += 64 {
		c.sweep[i]++
	}
}

func benchCrossing(b *testing.B, calm, cold bool) {
	c := newCrossing(b, calm)
	if cold {
		c.coldTicks()
	}
	for range crossingWarm { // the first views and labels, out of the measure
		c.runLine()
		c.w.Tick(c.now)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	ps0, lb0, _, _ := c.counts()
	v0 := c.w.ents.passes[0]
	var ticks []time.Duration
	var pt, lt []int  // the ops of each tick
	var backlog []int // the views left deferred after each tick
	c.w.ents.views.waitMax = 0
	psLast, lbLast := ps0, lb0
	last := make([]int, len(c.conns)) // each client's bytes so far
	c.clientBurst(last)
	var kb []float64 // by tick, the most bytes one client was sent in it, KB
	var missed []int
	var near [len(nearKs)]float64
	for b.Loop() {
		if cold {
			c.sweepCaches()
		}
		t := threadcpu.Spent()
		c.runLine()
		c.w.Tick(c.now)
		ticks = append(ticks, threadcpu.Spent()-t)
		ps, lb, _, _ := c.counts()
		pt, lt = append(pt, ps-psLast), append(lt, lb-lbLast)
		psLast, lbLast = ps, lb
		kb = append(kb, c.clientBurst(last))
		backlog = append(backlog, len(c.w.ents.views.deferred)-c.w.ents.views.head)
		if len(ticks)%missedEvery == 0 {
			missed, near = c.missed(missed, near)
		}
	}
	ps1, lb1, _, _ := c.counts()
	n := float64(len(ticks))
	var sum time.Duration
	for _, t := range ticks {
		sum += t
	}
	slices.Sort(ticks)
	b.ReportMetric(float64(sum)/n/1e6, "tick-mean-ms")
	b.ReportMetric(float64(ticks[len(ticks)*99/100])/1e6, "tick-p99-ms")
	b.ReportMetric(float64(ticks[len(ticks)-1])/1e6, "tick-max-ms")
	b.ReportMetric(float64(ps1-ps0)/n, "player-ops/tick")
	b.ReportMetric(float64(lb1-lb0)/n, "label-ops/tick")
	slices.Sort(pt)
	slices.Sort(lt)
	b.ReportMetric(float64(pt[len(pt)*99/100]), "player-ops-p99")
	b.ReportMetric(float64(lt[len(lt)*99/100]), "label-ops-p99")
	slices.Sort(kb)
	b.ReportMetric(kb[len(kb)*99/100], "client-kb-p99")
	b.ReportMetric(kb[len(kb)-1], "client-kb-max")
	b.ReportMetric(float64(c.w.ents.passes[0]-v0)/n, "views/tick")
	var queued int
	for _, k := range backlog {
		queued += k
	}
	slices.Sort(backlog)
	b.ReportMetric(float64(queued)/n, "backlog-mean")
	b.ReportMetric(float64(backlog[len(backlog)*99/100]), "backlog-p99")
	b.ReportMetric(float64(backlog[len(backlog)-1]), "backlog-max")
	b.ReportMetric(float64(c.w.ents.views.waitMax), "wait-max-ticks")
	if len(missed) > 0 {
		for i, k := range nearKs {
			b.ReportMetric(near[i]/float64(len(missed)), fmt.Sprintf("near%d-missing", k))
		}
	}
}

// clientBurst returns the most bytes of PlayerShow and Label3D (38 and 291
// bytes) one client was sent since last, KB, and updates last.
func (c *oneSpot) clientBurst(last []int) float64 {
	most := 0
	for i, k := range c.conns {
		n := k.pshow*wire.PlayerShowLen + k.label*wire.Label3DLen
		most = max(most, n-last[i])
		last[i] = n
	}
	return float64(most) / 1024
}

// BenchmarkCrossingHides is one hide sent, of a player and of a label,
// from its template (players_show.go, label.go: decision 0377), and as
// before it, a PlayerShow or Label3D filled, checked and encoded for each
// (encode): a crossing sends ~1400 of each a tick. The client's queue is
// a countConn copying the bytes, as the lane does.
func BenchmarkCrossingHides(b *testing.B) {
	w, err := New(testConfig(), nil, t0)
	if err != nil {
		b.Fatal(err)
	}
	var ticks int
	conn := &countConn{tick: &ticks, sink: make([]byte, coldSink)}
	var h wire.ServerHello
	q, _ := w.Join(conn, &h)
	b.Run("player/template", func(b *testing.B) {
		b.ReportAllocs()
		id := uint16(0)
		for b.Loop() {
			id = (id + 1) % wire.MaxPlayers
			w.sendHide(q, id)
		}
	})
	b.Run("player/encode", func(b *testing.B) {
		b.ReportAllocs()
		id := uint16(0)
		for b.Loop() {
			id = (id + 1) % wire.MaxPlayers
			show := &w.ents.pshow
			*show = wire.PlayerShow{PlayerID: id}
			w.buf = show.Append(w.buf[:0])
			w.sendEncoded(q, w.buf, lane.Critical)
		}
	})
	b.Run("label/template", func(b *testing.B) {
		b.ReportAllocs()
		id := uint32(0)
		for b.Loop() {
			id++
			w.sendLabelHide(q, id)
		}
	})
	b.Run("label/encode", func(b *testing.B) {
		b.ReportAllocs()
		id := uint32(0)
		for b.Loop() {
			id++
			w.prims.label = wire.Label3D{LabelID: id}
			sendOp(w, q, &w.prims.label)
		}
	})
}

// BenchmarkLabelPassWalk is the walk of a label pass over the labels on
// the players a view shows (labelsOnShownPlayers), for 50 of the
// crossing's 1000 viewers an op (a tick's label passes: each viewer's once
// a second), the next 50 on the next op, at the packs' first crossing:
// refs reads a player's only label's slot from its ref (decision 0377),
// lists reads it from the player's list of labels, as before it
// (labelsByLists, kept here), gather reads the refs in a loop of their
// own before the labels' entries (labelsByGather, measured and not kept:
// decision 0397). -cold sweeps the caches before each op (sweepCaches),
// as a tick finds them in the load run.
func BenchmarkLabelPassWalk(b *testing.B) {
	c := crossingMet(b)
	walks := map[string]func(*Player) int{
		"refs": func(p *Player) int {
			n := 0
			for s := range c.w.labelsOnShownPlayers(p) {
				n += int(s)
			}
			return n
		},
		"gather": func(p *Player) int {
			n := 0
			for s := range c.w.labelsByGather(p) {
				n += int(s)
			}
			return n
		},
		"lists": func(p *Player) int { return c.w.labelsByLists(p) },
	}
	want := 0
	for _, cold := range []bool{false, true} {
		for _, name := range []string{"refs", "gather", "lists"} {
			walk := walks[name]
			if cold {
				name += "-cold"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				sum, next := 0, 0
				for b.Loop() {
					if cold {
						b.StopTimer()
						c.sweepCaches()
						b.StartTimer()
					}
					for _, m := range c.ms[next : next+50] {
						sum += walk(m.p)
					}
					next = (next + 50) % len(c.ms)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/50, "ns/pass")
				if b.N == walkOps {
					if want == 0 {
						want = sum
					}
					if sum != want || sum == 0 {
						b.Fatalf("got a sum of slots %d, want %d as the first walk", sum, want)
					}
				}
			})
		}
	}
}

// walkOps is the ops of BenchmarkLabelPassWalk at which its walks are
// checked against each other: -benchtime 400x.
const walkOps = 400

// labelAt is a label on a player labelsByGather reads: its slot, and its
// player's stream center.
type labelAt struct {
	pos grid.Vec
	s   int32
}

// gatherScratch is labelsByGather's scratch (the world held it).
var gatherScratch []labelAt

// labelsByGather is labelsOnShownPlayers in two loops, measured and not
// kept (decision 0397): the shown players' refs (slot and position) into
// a scratch first, then the labels' entries, so that the misses of each
// loop overlap. Its labels and their order are the same.
func (w *World) labelsByGather(p *Player) iter.Seq2[int32, stream.Want] {
	return func(yield func(int32, stream.Want) bool) {
		at := gatherScratch[:0]
		d := &w.ents.views.labels
		refs := w.ents.views.refs
		for _, id := range p.ent.shownP {
			r := &refs[id]
			if id == p.id || !r.inGrid {
				continue
			}
			if s := r.label - 1; s >= 0 {
				at = append(at, labelAt{pos: r.pos, s: s})
				continue
			}
			if int(id) >= len(d.on) {
				continue
			}
			for _, s := range d.on[id] {
				at = append(at, labelAt{pos: r.pos, s: s})
			}
		}
		gatherScratch = at
		for _, a := range at {
			if want, ok := d.refs[a.s].want(p, a.pos); ok && !yield(a.s, want) {
				return
			}
		}
	}
}

// labelsByLists is labelsOnShownPlayers before decision 0377, summing the
// slots: every shown player's labels read from its list.
func (w *World) labelsByLists(p *Player) int {
	d := &w.ents.views.labels
	refs := w.ents.views.refs
	n := 0
	for _, id := range p.ent.shownP {
		if int(id) >= len(d.on) || len(d.on[id]) == 0 || id == p.id {
			continue
		}
		r := &refs[id]
		if !r.inGrid {
			continue
		}
		for _, s := range d.on[id] {
			if _, ok := d.refs[s].want(p, r.pos); ok {
				n += int(s)
			}
		}
	}
	return n
}
