package world

import (
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/threadcpu"
	"dlmp/internal/transport"
	"dlmp/internal/udptest"
	"dlmp/internal/wire"
)

// BenchmarkMovesCrossing is newCrossing's race crossing (two packs of 500
// running through each other on a 170 m line, a name label each) with
// every player a real transport session (transport.Server.Attach) sending
// to 20 loopback sockets nobody reads: the world's whole Tick (its views'
// shows and hides every tick, the fresh shows' first moves among them)
// then the server's Flush, by the tick thread's CPU clock, the writer's
// sends waited for outside the measure. Reported: tick-mean-us and
// tick-p99-us (Tick and Flush), flush-mean-us. The moves' rows are read
// from its CPU profile (docs/benchmarks/moves9.md).
//
//	go test ./internal/world -run '^$' -bench MovesCrossing -benchtime 400x
func BenchmarkMovesCrossing(b *testing.B) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := transport.Listen(transport.Config{Listen: "127.0.0.1:0", Timeout: 24 * time.Hour, Log: quiet}, noHandler{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	sinks := udptest.Sinks(b, 20)
	w, err := New(testConfig(), nil, t0)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	now := t0
	var ms []mover
	for i := range 1000 {
		var h wire.ServerHello
		p, _ := w.Join(srv.Attach(sinks[i%len(sinks)], now), &h)
		x := float32(r.Float64() * packLen)
		y := float32((r.Float64() - 0.5) * packWidth)
		dx := float32(6 * 0.05)
		if i%2 == 1 {
			x, dx = lineLen-x, -dx
		}
		pos := grid.Vec{X: x, Y: y, Z: 10}
		if err := w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			b.Fatal(err)
		}
		if _, err := w.CreateLabel(LabelParams{Text: p.Name(), Color: 0xFFFF80, Pos: grid.Vec{Z: 0.4}, DrawDistance: 40,
			AttachKind: wire.AttachPlayer, AttachID: uint32(p.id)}); err != nil {
			b.Fatal(err)
		}
		ms = append(ms, mover{p: p, pos: pos, dx: dx})
	}
	var s wire.PlayerSync
	step := func() {
		now = now.Add(50 * time.Millisecond)
		for i := range ms {
			m := &ms[i]
			if m.pos.X+m.dx < 0 || m.pos.X+m.dx > lineLen {
				m.dx = -m.dx
			}
			m.pos.X += m.dx
			m.seq++
			s = wire.PlayerSync{Seq: m.seq, Landed: 1, State: 1, X: m.pos.X, Y: m.pos.Y, Z: m.pos.Z, Health: 100}
			w.Packet(m.p, &s, now)
		}
	}
	for range 60 { // the first views and labels, out of the measure
		step()
		w.Tick(now)
		srv.Flush(now)
		waitWriter(srv)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ticks []time.Duration
	var flush time.Duration
	b.ReportAllocs()
	for b.Loop() {
		step()
		c0 := threadcpu.Spent()
		w.Tick(now)
		c1 := threadcpu.Spent()
		srv.Flush(now)
		c2 := threadcpu.Spent()
		ticks = append(ticks, c2-c0)
		flush += c2 - c1
		waitWriter(srv)
	}
	n := float64(len(ticks))
	var sum time.Duration
	for _, t := range ticks {
		sum += t
	}
	slices.Sort(ticks)
	b.ReportMetric(float64(sum)/n/1e3, "tick-mean-us")
	b.ReportMetric(float64(ticks[len(ticks)*99/100])/1e3, "tick-p99-us")
	b.ReportMetric(float64(flush)/n/1e3, "flush-mean-us")
	if d := srv.Stats().UnreliableDropped; d != 0 {
		b.Logf("%d unreliable datagrams dropped", d)
	}
}
