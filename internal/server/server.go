// Package server runs one dlmp world: it ties the UDP transport, the world
// engine and the gamemode together on one goroutine, the tick, at the
// configured rate, and ends them cleanly.
//
// Ownership: Run's goroutine is the world's goroutine. Everything that
// touches the world from elsewhere (console commands, the admin page) goes
// through Do, which runs a function on that goroutine between ticks.
package server

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"dlmp/internal/admin"
	"dlmp/internal/config"
	"dlmp/internal/netvar"
	"dlmp/internal/rtthread"
	"dlmp/internal/threadcpu"
	"dlmp/internal/transport"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// ShutdownGrace bounds how long Run spends ending the connections.
const ShutdownGrace = 2 * time.Second

// SummaryEvery is how often Run logs a summary line (never one per packet).
const SummaryEvery = 10 * time.Second

// Options configure a Server.
type Options struct {
	Config config.Config
	// Gamemode builds the gamemode once the world exists; nil runs the
	// world with no gamemode (world.Base).
	Gamemode func(w *world.World) (world.Gamemode, error)
	// Netvars is the network-vars registry the gamemode registers into;
	// New seals it once Gamemode has returned (the Initialize hook). nil
	// is an empty registry.
	Netvars *netvar.Registry
	// NetvarsReady, when set, receives the store once it exists (to
	// attach the Lua binding); it runs inside New.
	NetvarsReady func(st *netvar.Store)
	// TickFIFO, when above 0, locks Run's goroutine (the tick) to an OS
	// thread and runs that thread in the real-time class SCHED_FIFO at
	// this priority (1..99; needs CAP_SYS_NICE): the kernel then gives it
	// a core as soon as it is runnable instead of sharing the core with the
	// other threads of the machine (decision 0255). Linux only; where it
	// cannot be set Run logs why and runs as if it were 0.
	TickFIFO int
	// WriterFIFO does the same for the transport's writer, the goroutine
	// that sends the datagrams each tick hands it (transport.Config's
	// WriterFIFO; decision 0426). Set it below TickFIFO, so that the tick
	// goes first when both wait for one core.
	WriterFIFO int
	Log        *slog.Logger
}

// Server is one running world.
type Server struct {
	// immutable after New
	cfg   config.Config
	log   *slog.Logger
	tr    *transport.Server
	world *world.World
	gm    *proxy
	nv    *netvars

	jobs     chan func()
	started  time.Time
	tickFIFO int

	admin *admin.Server // nil when admin.listen is empty
	board admin.MapBoard

	mu    sync.Mutex // guards ticks
	ticks tickStats

	gc     *gcMetrics // read on Run's goroutine only
	lastGC gcTotals   // at the last summary

	lastRetransmits uint64    // the reliable lanes' retransmissions at the last summary
	lastCauses      [3]uint64 // their fast ones, timeouts and deferred timers then

	tickRetransmits uint64 // the reliable lanes' retransmissions at the last tick's end (Run's goroutine)
	tickDatagrams   uint64 // the datagrams written by then
}

// proxy lets the world be built before the gamemode that needs it.
type proxy struct{ world.Gamemode }

// New opens the game port and builds the world and the gamemode.
func New(opts Options, now time.Time) (*Server, error) {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, err
	}
	s := &Server{cfg: opts.Config, log: opts.Log, gm: &proxy{world.Base{}}, jobs: make(chan func(), 64), started: now, tickFIFO: opts.TickFIFO}
	w, err := world.New(opts.Config, s.gm, now)
	if err != nil {
		return nil, err
	}
	s.world = w
	if opts.Gamemode != nil {
		gm, err := opts.Gamemode(w)
		if err != nil {
			return nil, err
		}
		s.gm.Gamemode = gm
	}
	reg := opts.Netvars
	if reg == nil {
		reg = netvar.NewRegistry()
	}
	if s.nv, err = newNetvars(reg, w, opts.Config.Netvar); err != nil {
		return nil, err
	}
	if opts.NetvarsReady != nil {
		opts.NetvarsReady(s.nv.store)
	}
	c := opts.Config
	tr, err := transport.Listen(transport.Config{
		Listen:      c.Server.Listen,
		TickHz:      c.Server.TickHz,
		SyncHz:      c.Server.SyncHz,
		MaxPlayers:  c.Server.MaxPlayers,
		Keepalive:   time.Duration(c.Net.KeepaliveMs) * time.Millisecond,
		Timeout:     time.Duration(c.Net.TimeoutMs) * time.Millisecond,
		SendQueue:   c.Net.SendQueue,
		InboundRate: c.Net.InboundRate,
		WriterFIFO:  opts.WriterFIFO,
		Log:         opts.Log,
	}, handler{s})
	if err != nil {
		return nil, err
	}
	s.tr = tr
	if err := s.startAdmin(); err != nil {
		tr.Close()
		return nil, err
	}
	return s, nil
}

// Addr is the bound game address.
func (s *Server) Addr() string { return s.tr.Addr().String() }

// Transport exposes the transport's counters.
func (s *Server) Transport() *transport.Server { return s.tr }

// Do runs f on the world's goroutine between ticks and waits for it. It
// returns ctx's error if Run is not running or ctx ends first.
func (s *Server) Do(ctx context.Context, f func(w *world.World)) error {
	done := make(chan struct{})
	select {
	case s.jobs <- func() { f(s.world); close(done) }:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run ticks the world until ctx ends, then ends every connection with
// server_shutdown, tells the gamemode, and closes the socket.
func (s *Server) Run(ctx context.Context) error {
	period := time.Second / time.Duration(s.cfg.Server.TickHz)
	t := time.NewTicker(period)
	defer t.Stop()
	s.log.Info("dlmp serving", "listen", s.Addr(), "tick_hz", s.cfg.Server.TickHz, "sync_hz", s.cfg.Server.SyncHz, "max_players", s.cfg.Server.MaxPlayers)
	summary := time.NewTicker(SummaryEvery)
	defer summary.Stop()
	maps := time.NewTicker(MapEvery)
	defer maps.Stop()
	_, unlock := rtthread.LockLogged(s.log, "tick", s.tickFIFO)
	defer unlock()
	// The world's parts on the tick thread's clock: meaningful when the
	// tick stays on its thread (the phases check it).
	s.world.TimeParts(threadcpu.Spent)
	var last transport.StatsSnapshot
	var clock monotonic
	var behind bool // the last tick's flush found the writer behind
	s.gc = newGCMetrics()
	s.lastGC = s.gc.totals()
	for {
		select {
		case <-ctx.Done():
			return s.shutdown()
		case <-summary.C:
			last = s.logSummary(last)
		case <-maps.C:
			if s.admin != nil && s.admin.MapWatchers() > 0 {
				s.publishMap()
			}
		case f := <-s.jobs:
			f()
		case <-s.tr.Arrived():
			// The clients' packets as they come: the tick delivers only
			// what came since.
			start := time.Now()
			s.tr.Receive(clock.at(start))
			took := time.Since(start)
			s.mu.Lock()
			s.ticks.between(took)
			s.mu.Unlock()
		case now := <-t.C:
			now = clock.at(now)
			var ph phases
			gc0 := s.gc.cycles()
			tid0, cpu0, cpuOK := threadCPU()
			runq0, runqOK := runqWait()
			minf0, majf0, fltOK := threadFaults()
			ph.cpu0, ph.tid0 = cpu0, tid0
			start := time.Now()
			s.tr.Receive(now) // delivers the clients' packets to the world
			ph.mark(phaseReceive, start)
			s.world.Tick(now)
			ph.mark(phaseWorld, start)
			ph.parts = s.world.TickParts()
			s.nv.tick(now)
			ph.mark(phaseNetvars, start)
			if tk, ok := s.gm.Gamemode.(interface{ Tick(time.Time) }); ok {
				tk.Tick(now) // the gamemode's timers
			}
			ph.mark(phaseGamemode, start)
			ph.behind, ph.behindBefore = s.tr.Pending() > 0, behind
			behind = ph.behind
			s.tr.Flush(now) // sends what the world queued this tick
			ph.mark(phaseFlush, start)
			took := ph.total()
			if tid1, cpu1, ok := threadCPU(); ok && cpuOK && tid1 == tid0 {
				ph.cpu = cpu1 - cpu0 // the tick stayed on one thread: its CPU time
				if runq1, ok := runqWait(); ok && runqOK {
					ph.runq = runq1 - runq0 // and its waits for a CPU
				}
				if minf1, majf1, ok := threadFaults(); ok && fltOK {
					ph.minFlt, ph.majFlt = minf1-minf0, majf1-majf0 // and its page faults
				}
			}
			ph.gc = s.gc.cycles() != gc0
			ph.retransmits, ph.datagrams = s.flushed()
			s.mu.Lock()
			s.ticks.add(took, &ph)
			s.mu.Unlock()
			if s.admin != nil {
				s.admin.ObserveTick(start.Add(took), took)
				for i, name := range phaseNames {
					s.admin.ObservePhase(name, ph.length(i))
				}
				if ph.cpu > 0 {
					s.admin.ObserveTickCPU(ph.cpu)
				}
			}
		}
	}
}

// flushed returns the reliable lanes' retransmissions and the datagrams
// written since its last call: read after a tick's clocks, it walks the
// sessions once (LaneTotals) and copies the transport's counters.
func (s *Server) flushed() (retransmits, datagrams uint64) {
	rt, _, _ := s.tr.LaneTotals()
	dg := s.tr.Stats().DatagramsOut
	if rt >= s.tickRetransmits && dg >= s.tickDatagrams { // counters only grow; never wrap on a surprise
		retransmits, datagrams = rt-s.tickRetransmits, dg-s.tickDatagrams
	}
	s.tickRetransmits, s.tickDatagrams = rt, dg
	return retransmits, datagrams
}

// monotonic hands the world times that never go back: a tick's time is
// when its ticker fired, and packets delivered between ticks may have been
// delivered at a later time than a tick that was waiting.
type monotonic struct{ last time.Time }

func (m *monotonic) at(t time.Time) time.Time {
	if t.Before(m.last) {
		return m.last
	}
	m.last = t
	return t
}

func (s *Server) shutdown() error {
	now := time.Now()
	if sd, ok := s.gm.Gamemode.(interface{ Shutdown() }); ok {
		sd.Shutdown()
	}
	s.tr.Shutdown(wire.ReasonServerShutdown, now)
	// Give the writer a moment to put the Disconnects on the wire.
	deadline := time.Now().Add(ShutdownGrace)
	for s.tr.Pending() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	err := s.tr.Close()
	if s.admin != nil {
		s.admin.Close()
	}
	s.log.Info("dlmp stopped")
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// handler adapts the transport's sessions to the world's players.
type handler struct{ s *Server }

func (h handler) Join(sess *transport.Session, hello *wire.ServerHello) bool {
	p, ok := h.s.world.Join(sess, hello)
	if !ok {
		return false
	}
	sess.User = p
	sess.PlayerID = p.ID()
	h.s.nv.join(sess, p)
	return true
}

func (h handler) Packet(sess *transport.Session, pkt wire.Packet, now time.Time) {
	if p, ok := sess.User.(*world.Player); ok && !h.s.nv.packet(p, pkt, now) {
		h.s.world.Packet(p, pkt, now)
	}
}

func (h handler) Leave(sess *transport.Session, reason uint8) {
	if p, ok := sess.User.(*world.Player); ok {
		h.s.world.Leave(p, reason)
		h.s.nv.leave(p)
	}
}

// logSummary logs the tick durations and the traffic since the last summary.
func (s *Server) logSummary(last transport.StatsSnapshot) transport.StatsSnapshot {
	st := s.TakeTickStats()
	now := s.tr.Stats()
	var drops uint64
	for _, n := range now.Drops {
		drops += n
	}
	for _, n := range last.Drops {
		drops -= n
	}
	gc := s.gc.totals()
	retransmits, queued, deepest := s.tr.LaneTotals()
	fast, timeouts, deferred := s.tr.RetransmitCauses()
	s.log.Info("summary",
		"players", s.world.Players(),
		"ticks", st.Count,
		"tick_p50_us", st.P50.Microseconds(),
		"tick_p99_us", st.P99.Microseconds(),
		"tick_max_us", st.Max.Microseconds(),
		"tick_cpu_p50_us", st.CPUP50.Microseconds(),
		"tick_cpu_p99_us", st.CPUP99.Microseconds(),
		"phases_mean_us", st.phaseMeans(),
		"phases_p99_us", st.phaseP99s(),
		"slowest_tick", st.Slowest.logValue(),
		"slowest_wall_tick", st.SlowestWall.logValue(),
		"tick_runq_p99_us", st.RunQP99.Microseconds(),
		"tick_off_p99_us", st.OffP99.Microseconds(),
		"gc_cycles", gc.cycles-s.lastGC.cycles,
		"gc_ticks", st.GCTicks,
		"writer_behind_ticks", st.WriterBehind,
		"minor_faults", st.MinorFaults,
		"major_faults", st.MajorFaults,
		"minor_faults_p99", st.MinorFaultsP99,
		"fault_ticks", st.FaultTicks,
		"gc_cpu_us", int64((gc.cpuSecs-s.lastGC.cpuSecs)*1e6),
		"gc_assist_cpu_us", int64((gc.assistSecs-s.lastGC.assistSecs)*1e6),
		"between_receives", st.Between,
		"between_receive_us", st.BetweenTook.Microseconds(),
		"datagrams_in", now.DatagramsIn-last.DatagramsIn,
		"reads", now.Reads-last.Reads,
		"datagrams_out", now.DatagramsOut-last.DatagramsOut,
		"messages_out", now.MessagesOut-last.MessagesOut, // messages the writer was given: a session's run of equal-size datagrams is one, sent as one GSO message when gso (0338)
		"writes", now.Writes-last.Writes, // the writer's wake-ups (0339)
		"gso", s.tr.GSO(),
		"bytes_in", now.BytesIn-last.BytesIn,
		"bytes_out", now.BytesOut-last.BytesOut,
		"drops", drops,
		"unreliable_reused", now.UnreliableReused-last.UnreliableReused,
		"unreliable_dropped", now.UnreliableDropped-last.UnreliableDropped,
		"retransmits", retransmits-s.lastRetransmits,
		"fast_retransmits", fast-s.lastCauses[0],
		"timeout_retransmits", timeouts-s.lastCauses[1],
		"deferred_timers", deferred-s.lastCauses[2],
		"reliable_queued", queued,
		"reliable_deepest", deepest,
		"reliable_free_slots", s.tr.FreeSlots(),
	)
	s.lastRetransmits = retransmits
	s.lastCauses = [3]uint64{fast, timeouts, deferred}
	s.lastGC = gc
	return now
}
