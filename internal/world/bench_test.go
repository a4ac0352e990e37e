package world

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// nullConn discards what it is sent and always has room.
type nullConn struct{ sent int }

func (c *nullConn) Send([]byte, lane.Class) error { c.sent++; return nil }
func (c *nullConn) SendUnreliable([]byte)         {}
func (c *nullConn) Free() int                     { return 4096 }
func (c *nullConn) Kick(uint8)                    {}
func (c *nullConn) Progress() (uint64, uint64)    { return uint64(c.sent), uint64(c.sent) }

type mover struct {
	p      *Player
	pos    grid.Vec
	dx, dy float32
	seq    uint32
	wait   int // ticks to stand still before running
}

// loadedWorld builds a world with pickups spread over ±4000 m and players
// spawned at random points, each with a running direction.
func loadedWorld(tb testing.TB, pickups, players int) (*World, []mover) {
	tb.Helper()
	c := testConfig()
	w, err := New(c, nil, t0)
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	coord := func() float32 { return float32(r.Float64()*8000 - 4000) }
	for range pickups {
		if _, err := w.CreatePickup(PickupParams{Model: 1240, Pos: grid.Vec{X: coord(), Y: coord(), Z: 10}}); err != nil {
			tb.Fatal(err)
		}
	}
	ms := make([]mover, players)
	for i := range ms {
		var h wire.ServerHello
		p, _ := w.Join(&nullConn{}, &h)
		pos := grid.Vec{X: coord(), Y: coord(), Z: 10}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			tb.Fatal(err)
		}
		a := r.Float64() * 6.28
		ms[i] = mover{p: p, pos: pos, dx: float32(7 * 0.05 * math.Cos(a)), dy: float32(7 * 0.05 * math.Sin(a))}
	}
	return w, ms
}

// step moves every player one tick at running speed (7 m/s), but those
// still waiting, and runs the tick: a PlayerSync each, then streaming.
func step(w *World, ms []mover, now time.Time, s *wire.PlayerSync) {
	for i := range ms {
		step1(w, &ms[i], now, s)
	}
	w.Tick(now)
}

// step1 moves m one sync at running speed (50 ms), unless it is still
// waiting, and sends its PlayerSync.
func step1(w *World, m *mover, now time.Time, s *wire.PlayerSync) {
	if m.wait > 0 {
		m.wait-- // standing: a standing player syncs too
	} else {
		m.pos.X += m.dx
		m.pos.Y += m.dy
	}
	if m.pos.X > 4000 || m.pos.X < -4000 {
		m.dx = -m.dx
	}
	if m.pos.Y > 4000 || m.pos.Y < -4000 {
		m.dy = -m.dy
	}
	m.seq++
	*s = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: m.pos.X, Y: m.pos.Y, Z: m.pos.Z, Health: 100}
	w.Packet(m.p, s, now)
}

// BenchmarkTick: one tick of 1000 running players among 100,000 pickups,
// the grid against a scan of every pickup.
func BenchmarkTick(b *testing.B) {
	for _, mode := range []struct {
		name  string
		brute bool
	}{{"grid", false}, {"brute", true}} {
		b.Run(mode.name, func(b *testing.B) {
			w, ms := loadedWorld(b, 100_000, 1000)
			w.bruteForce = mode.brute
			now := t0
			var s wire.PlayerSync
			for range 3 { // settle the first full views
				now = now.Add(50 * time.Millisecond)
				step(w, ms, now, &s)
			}
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(50 * time.Millisecond)
				step(w, ms, now, &s)
			}
		})
	}
}

// BenchmarkMemory reports the heap per pickup (100,000 of them) and per
// spawned player with their pickup view (1000 of them).
func BenchmarkMemory(b *testing.B) {
	b.ReportAllocs()
	var perPickup, perPlayer float64
	for b.Loop() {
		before := heap()
		w, _ := loadedWorld(b, 100_000, 0)
		mid := heap()
		_, ms := loadedWorldWith(b, w, 1000)
		after := heap()
		perPickup = float64(mid-before) / 100_000
		perPlayer = float64(after-mid) / float64(len(ms))
		runtime.KeepAlive(w)
	}
	b.ReportMetric(perPickup, "B/pickup")
	b.ReportMetric(perPlayer, "B/player")
}

// loadedWorldWith adds spawned players to w and runs one tick so their
// views are full.
func loadedWorldWith(tb testing.TB, w *World, players int) (*World, []mover) {
	r := rand.New(rand.NewPCG(3, 4))
	ms := make([]mover, players)
	for i := range ms {
		var h wire.ServerHello
		p, _ := w.Join(&nullConn{}, &h)
		pos := grid.Vec{X: float32(r.Float64()*8000 - 4000), Y: float32(r.Float64()*8000 - 4000), Z: 10}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			tb.Fatal(err)
		}
		ms[i] = mover{p: p, pos: pos}
	}
	w.Tick(t0.Add(50 * time.Millisecond))
	return w, ms
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
