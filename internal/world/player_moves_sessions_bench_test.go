package world

import (
	"io"
	"log/slog"
	"runtime"
	"syscall"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/threadcpu"
	"dlmp/internal/transport"
	"dlmp/internal/udptest"
	"dlmp/internal/wire"
)

// noHandler is a transport.Handler for sessions the benchmark attaches
// itself (transport.Server.Attach): no client says hello.
type noHandler struct{}

func (noHandler) Join(*transport.Session, *wire.ServerHello) bool   { return false }
func (noHandler) Packet(*transport.Session, wire.Packet, time.Time) {}
func (noHandler) Leave(*transport.Session, uint8)                   {}

// sessionsCrowd is warmCrowd (1000 players in spots hot spots) with every
// connection a real transport session (transport.Server.Attach) sending to
// 20 loopback sockets nobody reads, the server flushed after each tick and
// its writer waited for.
func sessionsCrowd(b *testing.B, spots int) (*World, []mover, []grid.Vec, *transport.Server, time.Time) {
	b.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := transport.Listen(transport.Config{Listen: "127.0.0.1:0", Timeout: 24 * time.Hour, Log: quiet}, noHandler{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	sinks := udptest.Sinks(b, 20)
	fnow, k := t0, 0
	w, ms, centers, _, now := warmCrowd(b, spots, func() *transport.Session {
		k++
		return srv.Attach(sinks[k%len(sinks)], t0)
	}, func([]*transport.Session) int {
		fnow = fnow.Add(50 * time.Millisecond)
		srv.Flush(fnow)
		waitWriter(srv)
		return 0
	})
	return w, ms, centers, srv, now
}

// waitWriter waits until srv's writer has written every batch.
func waitWriter(srv *transport.Server) {
	for srv.Pending() > 0 {
		time.Sleep(50 * time.Microsecond)
	}
}

// BenchmarkMovesSessions is issue 7's load run's moves on the tick thread
// through the real transport: 1000 players running in one hot spot (the
// load run's one pack: the 200 nearest shown to each, the 50 nearest of
// them near), each with a transport session. A tick is encodeMoves and
// every viewer's sendPlayerMoves (moves-us/tick), then the server's Flush
// (flush-us/tick: every session stepped, its datagrams handed to the
// writer), by the tick thread's CPU clock; tick-us/tick is both. The
// writer goroutine's sends to 20 loopback sockets nobody reads are waited
// for outside the measure; writer-ns/datagram is the rest of the
// process's CPU time a datagram (the syncs' excluded). The players' syncs are not measured, nor
// are the views (the shown sets of the warm-up stay).
//
//	go test ./internal/world -run '^$' -bench MovesSessions -benchtime 200x
func BenchmarkMovesSessions(b *testing.B) {
	w, ms, centers, srv, now := sessionsCrowd(b, 1)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var s wire.PlayerSync
	var moves, flush, thread time.Duration
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	out0 := srv.Stats().DatagramsOut
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(50 * time.Millisecond)
		tc := threadcpu.Spent()
		crowdSyncs(w, ms, centers, now, &s)
		c0 := threadcpu.Spent()
		w.ents.tick++
		w.encodeMoves()
		sendAllMoves(w)
		c1 := threadcpu.Spent()
		srv.Flush(now)
		c2 := threadcpu.Spent()
		moves += c1 - c0
		flush += c2 - c1
		thread += c2 - tc
		waitWriter(srv)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
	dg := float64(srv.Stats().DatagramsOut - out0)
	n := float64(b.N)
	b.ReportMetric(float64(moves)/float64(time.Microsecond)/n, "moves-us/tick")
	b.ReportMetric(float64(flush)/float64(time.Microsecond)/n, "flush-us/tick")
	b.ReportMetric(float64(moves+flush)/float64(time.Microsecond)/n, "tick-us/tick")
	b.ReportMetric(float64(cpu-thread)/dg, "writer-ns/datagram")
	b.ReportMetric(dg/n, "datagrams/tick")
	if d := srv.Stats().UnreliableDropped; d != 0 {
		b.Errorf("%d unreliable datagrams dropped", d)
	}
}

// BenchmarkMovesWarm is BenchmarkMovesSessions' tick with sendPlayerMoves'
// warm pass (warmMoves, decision 0389) and without it, side by side in
// the same loop: ticks in the order warm, cold, cold, warm (so that each
// sees the far phases and split ticks alike and the machine's load falls
// on both), cold ones made by marking the tick's viewers as warmed
// already. Reported per tick of each kind: moves (encodeMoves and the
// viewers' sendPlayerMoves) and moves+flush, by the tick thread's CPU
// clock. sessions: the crowd of BenchmarkMovesSessions (one hot spot, real
// transport sessions, flushed); count/ten-spots and count/one-spot:
// BenchmarkMovesFanOut's worlds, whose connections count spans (no
// session to load, nothing flushed).
//
//	go test ./internal/world -run '^$' -bench MovesWarm -benchtime 400x
func BenchmarkMovesWarm(b *testing.B) {
	b.Run("sessions", func(b *testing.B) {
		w, ms, centers, srv, now := sessionsCrowd(b, 1)
		movesWarm(b, w, ms, centers, now, func() { srv.Flush(now); waitWriter(srv) })
	})
	for _, bc := range []struct {
		name  string
		spots int
	}{{"ten-spots", 10}, {"one-spot", 1}} {
		b.Run("count/"+bc.name, func(b *testing.B) {
			w, ms, centers, _, now := movesWorld(b, bc.spots)
			movesWarm(b, w, ms, centers, now, nil)
		})
	}
}

// movesWarm is BenchmarkMovesWarm's loop; flush, when not nil, runs after
// each tick's moves (measured with them, but for its wait).
func movesWarm(b *testing.B, w *World, ms []mover, centers []grid.Vec, now time.Time, flush func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var s wire.PlayerSync
	var moves, tick [2]time.Duration // cold, warm
	var ticks [2]int
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		warm := b2i(i%4 == 0 || i%4 == 3)
		i++
		now = now.Add(50 * time.Millisecond)
		crowdSyncs(w, ms, centers, now, &s)
		c0 := threadcpu.Spent()
		w.ents.tick++
		w.encodeMoves()
		if warm == 0 {
			w.ents.moves.warmTick, w.ents.moves.warmTo = w.ents.tick, len(w.players)
		}
		sendAllMoves(w)
		c1 := threadcpu.Spent()
		if flush != nil {
			flush()
		}
		c2 := threadcpu.Spent()
		moves[warm] += c1 - c0
		tick[warm] += c2 - c0
		ticks[warm]++
	}
	for k, name := range []string{"cold", "warm"} {
		n := float64(max(ticks[k], 1)) * float64(time.Microsecond)
		b.ReportMetric(float64(moves[k])/n, "moves-us/"+name)
		if flush != nil {
			b.ReportMetric(float64(tick[k])/n, "tick-us/"+name)
		}
	}
}
