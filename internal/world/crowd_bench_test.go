package world

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/threadcpu"
	"dlmp/internal/wire"
)

// countConn is a connection that drops everything and counts the
// reliable packets by kind: PlayerShow, Label3D, and the unreliable ones.
type countConn struct {
	pshow, label, other, moves int
}

func (c *countConn) Send(msg []byte, _ lane.Class) error {
	switch msg[0] {
	case wire.IDPlayerShow:
		c.pshow++
	case wire.IDLabel3D:
		c.label++
	default:
		c.other++
	}
	return nil
}
func (c *countConn) SendUnreliable([]byte)                        { c.moves++ }
func (c *countConn) SendUnreliableSpans(_ []byte, spans []uint64) { c.moves += len(spans) }
func (c *countConn) Free() int                                    { return 4096 }
func (c *countConn) Kick(uint8)                                   {}
func (c *countConn) Progress() (uint64, uint64) {
	n := uint64(c.pshow + c.label + c.other)
	return n, n
}

// oneSpot is the load run's default world without the network: players
// spawned in a disc of radius meters around one point, each wearing a
// name label (draw distance 40, as the default gamemode's), random-walking
// like the bots' wander (6 m/s, a new heading one tick in 40 on average),
// turned back toward the center at the disc's edge.
type oneSpot struct {
	w      *World
	radius float64 // meters
	ms     []mover
	conns  []*countConn
	r      *rand.Rand
	now    time.Time
	s      wire.PlayerSync
}

func newOneSpot(tb testing.TB, players int, radius float64) *oneSpot {
	tb.Helper()
	w, err := New(config.Default(), nil, t0)
	if err != nil {
		tb.Fatal(err)
	}
	c := &oneSpot{w: w, radius: radius, r: rand.New(rand.NewPCG(5, 6)), now: t0}
	for range players {
		var h wire.ServerHello
		conn := &countConn{}
		p, _ := w.Join(conn, &h)
		a, d := c.r.Float64()*2*math.Pi, radius*math.Sqrt(c.r.Float64())
		pos := grid.Vec{X: float32(d * math.Cos(a)), Y: float32(d * math.Sin(a)), Z: 10}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			tb.Fatal(err)
		}
		if _, err := w.CreateLabel(LabelParams{Text: p.Name(), Color: 0xFFFF80, Pos: grid.Vec{Z: 0.4}, DrawDistance: 40,
			AttachKind: wire.AttachPlayer, AttachID: uint32(p.id)}); err != nil {
			tb.Fatal(err)
		}
		m := mover{p: p, pos: pos}
		c.turn(&m, c.r.Float64()*2*math.Pi)
		c.ms = append(c.ms, m)
		c.conns = append(c.conns, conn)
	}
	return c
}

func (c *oneSpot) turn(m *mover, a float64) {
	m.dx, m.dy = float32(6*0.05*math.Cos(a)), float32(6*0.05*math.Sin(a))
}

// syncs moves every player one tick and hands the world its PlayerSync.
func (c *oneSpot) syncs() {
	c.now = c.now.Add(50 * time.Millisecond)
	for i := range c.ms {
		m := &c.ms[i]
		switch {
		case float64(m.pos.X*m.pos.X+m.pos.Y*m.pos.Y) > c.radius*c.radius:
			c.turn(m, math.Atan2(float64(-m.pos.Y), float64(-m.pos.X))+(c.r.Float64()-0.5)*math.Pi/2)
		case c.r.IntN(40) == 0:
			c.turn(m, c.r.Float64()*2*math.Pi)
		}
		m.pos.X += m.dx
		m.pos.Y += m.dy
		m.seq++
		c.s = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: m.pos.X, Y: m.pos.Y, Z: m.pos.Z, Health: 100}
		c.w.Packet(m.p, &c.s, c.now)
	}
}

// counts returns the PlayerShow and Label3D packets sent so far.
func (c *oneSpot) counts() (pshow, label int) {
	for _, k := range c.conns {
		pshow += k.pshow
		label += k.label
	}
	return pshow, label
}

// BenchmarkCrowdLabels is one tick of issue 7's load run in the default
// world: 1000 players random-walking in a disc, each with a name label
// attached, 20 ticks a second; in a disc of 100 m (the 200th nearest
// ~45 m away, past the labels' draw distance) and of 50 m (~22 m: the
// labels shown follow the view of players). Each tick (the players' syncs
// and the world's tick) is measured apart by the thread's clock:
// tick-p50/p99-ms; player-ops and label-ops are the PlayerShow and Label3D
// packets (shows and hides) sent per tick, the churn; views the views of
// players computed per tick.
func BenchmarkCrowdLabels(b *testing.B) {
	for _, radius := range []float64{100, 50} {
		b.Run(fmt.Sprintf("disc-%.0fm", radius), func(b *testing.B) { benchCrowdLabels(b, radius) })
	}
}

func benchCrowdLabels(b *testing.B, radius float64) {
	c := newOneSpot(b, 1000, radius)
	for range 60 { // the first views and labels, out of the measure
		c.syncs()
		c.w.Tick(c.now)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	ps0, lb0 := c.counts()
	v0 := c.w.ents.passes[0]
	var ticks []time.Duration
	for b.Loop() {
		t := threadcpu.Spent()
		c.syncs()
		c.w.Tick(c.now)
		ticks = append(ticks, threadcpu.Spent()-t)
	}
	ps1, lb1 := c.counts()
	n := float64(len(ticks))
	slices.Sort(ticks)
	b.ReportMetric(float64(ticks[len(ticks)/2])/1e6, "tick-p50-ms")
	b.ReportMetric(float64(ticks[len(ticks)*99/100])/1e6, "tick-p99-ms")
	b.ReportMetric(float64(ticks[len(ticks)-1])/1e6, "tick-max-ms")
	b.ReportMetric(float64(ps1-ps0)/n, "player-ops/tick")
	b.ReportMetric(float64(lb1-lb0)/n, "label-ops/tick")
	b.ReportMetric(float64(c.w.ents.passes[0]-v0)/n, "views/tick")
}
