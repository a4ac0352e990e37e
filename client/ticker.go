package client

import (
	"slices"
	"sync"
	"time"
)

// Ticker ticks many clients from one goroutine and one timer, for a
// program of many clients (the bots): without it, each client's loop
// goroutine wakes on a timer of its own at every tick (20,000 timer
// wake-ups a second for 1000 clients). With it, the clients attached to a
// Ticker tick one after the other at each of its ticks, all at the tick's
// time (as a client's own timer's tick is the time it fired, not the time
// its goroutine ran: the sync rate is kept by tick times).
//
// The ticks of one Ticker's clients (their PlayerSyncs, and the keepalives
// the RTT is measured by) come in one burst a period; a program of many
// clients spreads them over several Tickers of different phases, as
// separate timers spread them.
//
// A client is attached by Config.Ticker and leaves when its connection
// ends. Stop the Ticker once its clients are closed: a client attached to
// a stopped Ticker no longer ticks (no acks, no PlayerSync, no server-silent
// check).
type Ticker struct {
	period time.Duration
	phase  float64
	made   time.Time          // the phase counts from here
	first  chan time.Duration // the first client's tick period
	stop   chan struct{}
	halt   sync.Once // closes stop
	done   chan struct{}

	mu      sync.Mutex // guards clients
	clients []*Client
	batch   []*Client // the run goroutine's copy of clients
}

// NewTicker starts a Ticker that ticks its clients every period; 0 is the
// sync period (ServerHello.sync_hz) of the first client attached, as a
// client's own timer does. Its ticks come at phase (0 ≤ phase < 1)
// periods after NewTicker, and every period from there, from the first
// one after the first client was attached: Tickers made together keep
// their phases apart however late their clients come.
func NewTicker(period time.Duration, phase float64) *Ticker {
	t := &Ticker{period: period, phase: min(max(phase, 0), 1), made: time.Now(), first: make(chan time.Duration, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go t.run()
	return t
}

// Stop stops the Ticker; it returns once the last tick has ended.
func (t *Ticker) Stop() {
	t.halt.Do(func() { close(t.stop) })
	<-t.done
}

func (t *Ticker) run() {
	defer close(t.done)
	var period time.Duration
	select {
	case period = <-t.first:
	case <-t.stop:
		return
	}
	if t.period != 0 {
		period = t.period
	}
	phase := time.NewTimer(untilPhase(time.Since(t.made), period, t.phase))
	select {
	case <-phase.C:
	case <-t.stop:
		phase.Stop()
		return
	}
	tk := time.NewTicker(period)
	defer tk.Stop()
	for {
		select {
		case <-t.stop:
			return
		case now := <-tk.C:
			t.tickAll(now)
		}
	}
}

// untilPhase is how long after elapsed (since the Ticker was made) its
// next tick of the given phase comes: in [0, period).
func untilPhase(elapsed, period time.Duration, phase float64) time.Duration {
	d := (time.Duration(phase*float64(period)) - elapsed) % period
	if d < 0 {
		d += period
	}
	return d
}

// add attaches c.
func (t *Ticker) add(c *Client) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clients = append(t.clients, c)
	select {
	case t.first <- c.tickPeriod():
	default: // told already
	}
}

// tickAll ticks every attached client once at now, in the order they were
// attached, and detaches those whose connection ended.
func (t *Ticker) tickAll(now time.Time) {
	t.mu.Lock()
	t.batch = append(t.batch[:0], t.clients...)
	t.mu.Unlock()
	ended := false
	for _, c := range t.batch {
		if !c.tick(now) {
			ended = true
		}
	}
	clear(t.batch) // no reference to a closed client kept here
	if !ended {
		return
	}
	t.mu.Lock()
	t.clients = slices.DeleteFunc(t.clients, func(c *Client) bool {
		select {
		case <-c.done:
			return true
		default:
			return false
		}
	})
	t.mu.Unlock()
}
