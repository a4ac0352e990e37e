package world

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/threadcpu"
	"dlmp/internal/wire"
)

// countConn is a connection that drops everything and counts the
// reliable packets by kind: PlayerShow, Label3D, and the unreliable ones;
// and the hides of a player by how long it was shown (young: fewer than
// youngTicks ticks), the part of the churn a minimum time shown would
// take out.
type countConn struct {
	pshow, label, other, moves int
	young, hides               int
	tick                       *int                    // the world's ticks so far (oneSpot.ticks)
	shownAt                    [wire.MaxPlayers]uint32 // by player id: the tick of its show, +1; 0 when hidden
	churn                      *flapCount              // when set, counts the flaps (crossing_churn_bench_test.go)
	viewer                     int                     // this client's index for churn
	// sink, when set, takes a copy of every critical message, as the
	// lane's Push copies it into the session's queue (coldTicks)
	sink []byte
	at   int
}

// youngTicks is how long, ticks, a player hidden was shown at most for
// its hide to count as young: a second at 20 Hz.
const youngTicks = 20

func (c *countConn) Send(msg []byte, _ lane.Class) error {
	if c.sink != nil {
		if c.at+len(msg) > len(c.sink) {
			c.at = 0
		}
		c.at += copy(c.sink[c.at:], msg)
	}
	if c.churn != nil {
		c.churn.event(c.viewer, msg)
	}
	switch msg[0] {
	case wire.IDPlayerShow:
		c.pshow++
		id := binary.LittleEndian.Uint16(msg[5:])
		switch {
		case msg[7] == 1 && c.shownAt[id] == 0:
			c.shownAt[id] = uint32(*c.tick) + 1
		case msg[7] == 0:
			if uint32(*c.tick)+1-c.shownAt[id] < youngTicks {
				c.young++
			}
			c.hides++
			c.shownAt[id] = 0
		}
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
	ticks  int // the world's ticks so far (the connections' clock)
	s      wire.PlayerSync
	calm   bool   // the crossing streams' calm world: nobody turns (crossing_bench_test.go)
	sweep  []byte // the buffer sweepCaches writes (crossing_bench_test.go)
}

func newOneSpot(tb testing.TB, players int, radius float64) *oneSpot {
	tb.Helper()
	w, err := New(testConfig(), nil, t0)
	if err != nil {
		tb.Fatal(err)
	}
	c := &oneSpot{w: w, radius: radius, r: rand.New(rand.NewPCG(5, 6)), now: t0}
	for range players {
		var h wire.ServerHello
		conn := &countConn{tick: &c.ticks}
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
	c.ticks++
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

// counts returns the PlayerShow and Label3D packets sent so far, and the
// PlayerShow hides, young and all.
func (c *oneSpot) counts() (pshow, label, young, hides int) {
	for _, k := range c.conns {
		pshow += k.pshow
		label += k.label
		young += k.young
		hides += k.hides
	}
	return pshow, label, young, hides
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
	ps0, lb0, y0, h0 := c.counts()
	v0 := c.w.ents.passes[0]
	var ticks []time.Duration
	var missed []int
	var near [len(nearKs)]float64
	for b.Loop() {
		t := threadcpu.Spent()
		c.syncs()
		c.w.Tick(c.now)
		ticks = append(ticks, threadcpu.Spent()-t)
		if len(ticks)%missedEvery == 0 { // between two measured ticks
			missed, near = c.missed(missed, near)
		}
	}
	ps1, lb1, y1, h1 := c.counts()
	n := float64(len(ticks))
	slices.Sort(ticks)
	b.ReportMetric(float64(ticks[len(ticks)/2])/1e6, "tick-p50-ms")
	b.ReportMetric(float64(ticks[len(ticks)*99/100])/1e6, "tick-p99-ms")
	b.ReportMetric(float64(ticks[len(ticks)-1])/1e6, "tick-max-ms")
	b.ReportMetric(float64(ps1-ps0)/n, "player-ops/tick")
	b.ReportMetric(float64(lb1-lb0)/n, "label-ops/tick")
	b.ReportMetric(float64(y1-y0)/float64(max(h1-h0, 1)), "young-hides")
	b.ReportMetric(float64(c.w.ents.passes[0]-v0)/n, "views/tick")
	if len(missed) > 0 {
		slices.Sort(missed)
		b.ReportMetric(float64(missed[len(missed)/100]), "missed-rank-p1")
		b.ReportMetric(float64(missed[len(missed)/2]), "missed-rank-p50")
		for i, k := range nearKs {
			b.ReportMetric(near[i]/float64(len(missed)), fmt.Sprintf("near%d-missing", k))
		}
	}
}

// nearKs are the counts of nearest players whose missing ones
// BenchmarkCrowdLabels reports: near50-missing is how many of its 50
// nearest a player is not shown, on average over the players and the
// samples (one in missedEvery ticks).
var nearKs = [...]int{50, 100, 150}

const missedEvery = 40

// missed appends, for every player, the rank by distance (1: the nearest)
// of the nearest other player it is not shown, and adds to near how many
// of its nearKs nearest it is not shown: what the view's edge rule costs
// the player, the refresh's delay included.
func (c *oneSpot) missed(ranks []int, near [len(nearKs)]float64) ([]int, [len(nearKs)]float64) {
	type other struct {
		d2 float32
		id uint16
	}
	var os []other
	for _, q := range c.ms {
		os = os[:0]
		for _, o := range c.ms {
			if o.p != q.p {
				os = append(os, other{grid.Dist2(q.p.pos, o.p.pos), o.p.id})
			}
		}
		slices.SortFunc(os, func(a, b other) int { return cmp.Or(cmp.Compare(a.d2, b.d2), cmp.Compare(a.id, b.id)) })
		rank := len(os) + 1
		for i, o := range os {
			if _, ok := q.p.ent.players.Shown(uint32(o.id)); !ok {
				for j, k := range nearKs {
					if i < k {
						near[j]++
					}
				}
				rank = min(rank, i+1)
			}
		}
		ranks = append(ranks, rank)
	}
	return ranks, near
}
