package world

import (
	"dlmp/internal/threadcpu"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// crowdWorld is the load run's world without the network: players spawned
// in spots hot spots of 150 m around points 2 km apart (up to ten), each running (6 m/s,
// the bots' speed) in a random direction, turned back at 150 m.
func crowdWorld(tb testing.TB, players, spots int) (*World, []mover, []grid.Vec) {
	return crowdWorldOf(tb, players, spots, func() Conn { return &nullConn{} })
}

// crowdWorldOf is crowdWorld with each player's connection made by conn.
func crowdWorldOf(tb testing.TB, players, spots int, conn func() Conn) (*World, []mover, []grid.Vec) {
	tb.Helper()
	w, err := New(testConfig(), nil, t0)
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	centers := make([]grid.Vec, players)
	ms := make([]mover, players)
	for i := range ms {
		var h wire.ServerHello
		p, _ := w.Join(conn(), &h)
		k := i % spots
		c := grid.Vec{X: float32(k%5)*2000 - 4000, Y: float32(k/5)*2000 - 1000, Z: 10}
		a, d := r.Float64()*2*math.Pi, 150*math.Sqrt(r.Float64())
		pos := grid.Vec{X: c.X + float32(d*math.Cos(a)), Y: c.Y + float32(d*math.Sin(a)), Z: 10}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			tb.Fatal(err)
		}
		a = r.Float64() * 2 * math.Pi
		ms[i] = mover{p: p, pos: pos, dx: float32(6 * 0.05 * math.Cos(a)), dy: float32(6 * 0.05 * math.Sin(a))}
		centers[i] = c
	}
	return w, ms, centers
}

// warmCrowd is crowdWorldOf's 1000 players in spots hot spots of 150 m,
// each connection made by mk, after 40 ticks of running (the views full);
// after each of those ticks it calls each, when not nil, with the
// connections.
func warmCrowd[C Conn](tb testing.TB, spots int, mk func() C, each func([]C) int) (*World, []mover, []grid.Vec, []C, time.Time) {
	var conns []C
	w, ms, centers := crowdWorldOf(tb, 1000, spots, func() Conn {
		c := mk()
		conns = append(conns, c)
		return c
	})
	now := t0
	var s wire.PlayerSync
	for range 40 {
		now = now.Add(50 * time.Millisecond)
		crowdStep(w, ms, centers, now, &s)
		if each != nil {
			each(conns)
		}
	}
	return w, ms, centers, conns, now
}

// dropUnreliable empties the connections' queued unreliable datagrams and
// returns how many bytes they held.
func dropUnreliable(conns []*packConn) (bytes int) {
	for _, c := range conns {
		bytes += len(c.unrel)
		c.unrel, c.ends = c.unrel[:0], c.ends[:0]
	}
	return bytes
}

// crowdStep moves every player one tick (a PlayerSync each) and runs the
// tick.
func crowdStep(w *World, ms []mover, centers []grid.Vec, now time.Time, s *wire.PlayerSync) {
	crowdSyncs(w, ms, centers, now, s)
	w.Tick(now)
}

// crowdSyncs moves every player one step within 150 m of its center and
// hands the world its PlayerSync.
func crowdSyncs(w *World, ms []mover, centers []grid.Vec, now time.Time, s *wire.PlayerSync) {
	for i := range ms {
		m := &ms[i]
		m.pos.X += m.dx
		m.pos.Y += m.dy
		if grid.Dist2(m.pos, centers[i]) > 150*150 {
			m.dx, m.dy = -m.dx, -m.dy
		}
		m.seq++
		*s = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: m.pos.X, Y: m.pos.Y, Z: m.pos.Z, Health: 100}
		w.Packet(m.p, s, now)
	}
}

// BenchmarkCrowdTick is one tick of 1000 running players: in ten hot spots
// (the load run's --spread world, ~100 players shown to each) and in one
// (its default world: the 200 nearest shown to each), running each their
// own way or all the same way (the default world's bots toward one goal:
// nobody's place in another's view changes, everybody reaches the requery
// distance together). The players' syncs
// are part of it. cpu-ms/tick is the benchmarking thread's CPU time: the
// figure to compare on a loaded machine; max-cpu-ms/tick the costliest
// tick's.
func BenchmarkCrowdTick(b *testing.B) {
	for _, bc := range []struct {
		name   string
		spots  int
		inStep bool
	}{{"spread", 10, false}, {"one-spot", 1, false}, {"one-spot-in-step", 1, true}} {
		b.Run(bc.name, func(b *testing.B) {
			w, ms, centers := crowdWorld(b, 1000, bc.spots)
			if bc.inStep { // everyone runs the same way, as bots do toward one goal
				for i := range ms {
					ms[i].dx, ms[i].dy = 6*0.05, 0
				}
			}
			now := t0
			var s wire.PlayerSync
			for range 40 { // the first views, out of the measure
				now = now.Add(50 * time.Millisecond)
				crowdStep(w, ms, centers, now, &s)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			c0, v0 := threadcpu.Spent(), w.ents.passes[0]
			var worst time.Duration // the costliest tick: players in step requery together
			for b.Loop() {
				now = now.Add(50 * time.Millisecond)
				t0 := threadcpu.Spent()
				crowdStep(w, ms, centers, now, &s)
				worst = max(worst, threadcpu.Spent()-t0)
			}
			b.ReportMetric(float64(threadcpu.Spent()-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/tick")
			b.ReportMetric(float64(worst)/float64(time.Millisecond), "max-cpu-ms/tick")
			b.ReportMetric(float64(w.ents.passes[0]-v0)/float64(b.N), "views/tick")
		})
	}
}

// packConn is a connection that queues its unreliable packets as a
// transport.Session does (back to back, in datagrams of at most
// wire.MaxDatagram, a run of spans in one call) and drops them at the end
// of the tick: the copy of every move into its viewer's datagrams, which
// nullConn leaves out.
type packConn struct {
	nullConn
	unrel []byte
	ends  []int
}

func (c *packConn) SendUnreliable(msg []byte) { c.pack(msg) }

func (c *packConn) SendUnreliableSpans(buf []byte, spans []uint64) {
	for _, sp := range spans {
		c.pack(buf[uint32(sp) : uint32(sp)+uint32(sp>>32)])
	}
}

func (c *packConn) pack(msg []byte) {
	n := len(c.ends)
	if n == 0 || len(c.unrel)+len(msg)-c.start() > wire.MaxDatagram {
		c.ends = append(c.ends, 0)
		n++
	}
	c.unrel = append(c.unrel, msg...)
	c.ends[n-1] = len(c.unrel)
}

func (c *packConn) start() int {
	if n := len(c.ends); n > 1 {
		return c.ends[n-2]
	}
	return 0
}

// BenchmarkCrowdTickSends is BenchmarkCrowdTick's one-spot crowd with
// every player's connection packing its moves into datagrams (packConn):
// the moves' send path as the server runs it, less the writer.
// moves/tick is the PlayerMoves queued per tick.
func BenchmarkCrowdTickSends(b *testing.B) {
	w, ms, centers, conns, now := warmCrowd(b, 1, func() *packConn { return &packConn{} }, dropUnreliable)
	var s wire.PlayerSync
	drop := func() int { return dropUnreliable(conns) }
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	c0 := threadcpu.Spent()
	var spent time.Duration
	bytes := 0
	for b.Loop() {
		now = now.Add(50 * time.Millisecond)
		crowdStep(w, ms, centers, now, &s)
		spent += threadcpu.Spent() - c0
		bytes += drop()
		c0 = threadcpu.Spent()
	}
	b.ReportMetric(float64(spent)/float64(time.Millisecond)/float64(b.N), "cpu-ms/tick")
	b.ReportMetric(float64(bytes)/float64(b.N)/1000, "KB/tick")
}

// BenchmarkCrowdTickMoves is the moves' part of BenchmarkCrowdTickSends'
// tick alone (encodeMoves and every viewer's sendPlayerMoves into a
// packConn), everybody moving on every tick from the crowd's place after
// its first views: the part this benchmark's ratios are about, without
// the views' and syncs' noise.
func BenchmarkCrowdTickMoves(b *testing.B) {
	w, ms, _, conns, _ := warmCrowd(b, 1, func() *packConn { return &packConn{} }, nil)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	moves := 0
	c0 := threadcpu.Spent()
	for b.Loop() {
		w.ents.tick++
		for _, m := range ms {
			m.p.ent.moved = true
		}
		w.encodeMoves()
		sendAllMoves(w)
		for _, c := range conns {
			moves += len(c.unrel) / 42
			c.unrel, c.ends = c.unrel[:0], c.ends[:0]
		}
	}
	b.ReportMetric(float64(threadcpu.Spent()-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/tick")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/tick")
}

// BenchmarkCrowdTickTail is BenchmarkCrowdTick's spread world with every
// tick measured apart by the thread's clock: the percentiles of the
// players' syncs (the same work on every tick: how much the machine alone
// moves a fixed piece of work), of the tick, and of the views of players
// computed per tick (decision 0243).
func BenchmarkCrowdTickTail(b *testing.B) {
	w, ms, centers := crowdWorld(b, 1000, 10)
	now := t0
	var s wire.PlayerSync
	for range 40 {
		now = now.Add(50 * time.Millisecond)
		crowdStep(w, ms, centers, now, &s)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	var syncs, ticks []time.Duration
	var views []float64
	backlog := 0 // the most views left deferred after a tick
	for b.Loop() {
		now = now.Add(50 * time.Millisecond)
		c0 := threadcpu.Spent()
		crowdSyncs(w, ms, centers, now, &s)
		c1, v0 := threadcpu.Spent(), w.ents.passes[0]
		w.Tick(now)
		syncs, ticks = append(syncs, c1-c0), append(ticks, threadcpu.Spent()-c1)
		views = append(views, float64(w.ents.passes[0]-v0))
		backlog = max(backlog, len(w.ents.views.deferred)-w.ents.views.head)
	}
	report := func(name string, d []time.Duration) {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2])/1e6, name+"-p50-ms")
		b.ReportMetric(float64(d[len(d)*99/100])/1e6, name+"-p99-ms")
	}
	report("sync", syncs)
	report("tick", ticks)
	var sum float64
	for _, v := range views {
		sum += v
	}
	b.ReportMetric(sum/float64(len(views)), "views-mean")
	b.ReportMetric(float64(backlog), "backlog-max")
	slices.Sort(views)
	b.ReportMetric(views[len(views)/2], "views-p50")
	b.ReportMetric(views[len(views)*99/100], "views-p99")
}
