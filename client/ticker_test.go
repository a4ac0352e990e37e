package client

import (
	"net"
	"sync"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// tickerClient is a loopClient attached to t, connected to a server socket
// it returns, its loop running; OnTick records the tick times.
func tickerClient(tt *testing.T, t *Ticker, ticks *[]time.Time) (*Client, *net.UDPConn) {
	tt.Helper()
	c := loopClient(tt, time.Now())
	srv := connect(tt, c)
	c.kick = make(chan struct{}, 1)
	c.hello.TimeoutMs = 60000
	c.cfg.Ticker = t
	c.cfg.OnTick = func(now time.Time) {
		*ticks = append(*ticks, now)
		c.SetSync(wire.PlayerSync{State: wire.StateOnFoot, X: float32(len(*ticks)), Health: 100})
	}
	c.wg.Add(1)
	go c.loop()
	t.add(c)
	tt.Cleanup(func() { c.Close() })
	return c, srv
}

// TestTickerTicksItsClients: a Ticker's tick runs each attached client's
// tick once at the tick's time (OnTick, then the PlayerSync it set, sent),
// and no longer ticks a client once its Close returned: it detaches it.
func TestTickerTicksItsClients(t *testing.T) {
	tk := &Ticker{first: make(chan time.Duration, 1)} // not running: the test ticks it
	var ticksA, ticksB []time.Time
	a, srvA := tickerClient(t, tk, &ticksA)
	_, srvB := tickerClient(t, tk, &ticksB)
	now := time.Now()
	tk.tickAll(now)
	tk.tickAll(now.Add(50 * time.Millisecond))
	for name, ticks := range map[string][]time.Time{"a": ticksA, "b": ticksB} {
		if len(ticks) != 2 || !ticks[0].Equal(now) || !ticks[1].Equal(now.Add(50*time.Millisecond)) {
			t.Errorf("client %s: got OnTick at %v, want at the two ticks' times", name, ticks)
		}
	}
	buf := make([]byte, 1500)
	for name, srv := range map[string]*net.UDPConn{"a": srvA, "b": srvB} {
		srv.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, _, err := srv.ReadFromUDPAddrPort(buf)
		if err != nil {
			t.Fatalf("client %s: %v", name, err)
		}
		var ps wire.PlayerSync
		if _, err := ps.Parse(buf[:n]); err != nil || ps.Seq != 1 || ps.X != 1 {
			t.Errorf("client %s: got first datagram %x (%v), want the first tick's PlayerSync at x 1", name, buf[:n], err)
		}
	}
	a.Close()
	tk.tickAll(now.Add(100 * time.Millisecond))
	if len(ticksA) != 2 || len(ticksB) != 3 {
		t.Errorf("after a's Close: got %d ticks of a, %d of b; want 2 and 3", len(ticksA), len(ticksB))
	}
	if len(tk.clients) != 1 {
		t.Errorf("got %d clients attached after one closed, want 1", len(tk.clients))
	}
}

// TestTickerCloseWaitsForTick: Close does not return while a Ticker's tick
// of the client runs (its OnTick may touch what the caller reads once
// Close returned, as the bots' results).
func TestTickerCloseWaitsForTick(t *testing.T) {
	tk := &Ticker{first: make(chan time.Duration, 1)}
	var ticks []time.Time
	c, _ := tickerClient(t, tk, &ticks)
	entered, release := make(chan struct{}), make(chan struct{})
	tick := c.cfg.OnTick
	c.cfg.OnTick = func(now time.Time) {
		close(entered)
		<-release
		tick(now)
	}
	ticked := make(chan struct{})
	go func() { tk.tickAll(time.Now()); close(ticked) }()
	<-entered
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while OnTick ran")
	case <-time.After(50 * time.Millisecond): // Close is waiting, as it should
	}
	close(release)
	<-closed
	<-ticked
}

// TestTickerPeriodFromHello: a Ticker of period 0 ticks at the sync rate
// (ServerHello.sync_hz) of its first client.
func TestTickerPeriodFromHello(t *testing.T) {
	tk := &Ticker{first: make(chan time.Duration, 1)}
	c := loopClient(t, time.Now())
	c.hello.SyncHz = 50
	tk.add(c)
	tk.add(loopClient(t, time.Now()))
	if got := <-tk.first; got != 20*time.Millisecond {
		t.Errorf("got period %v, want 20ms (50 Hz)", got)
	}
}

// TestUntilPhase: a Ticker's ticks are at phase periods after it was made
// and every period from there, whenever its first client comes.
func TestUntilPhase(t *testing.T) {
	const p = 100 * time.Millisecond
	for _, c := range []struct {
		elapsed time.Duration
		phase   float64
		want    time.Duration
	}{
		{0, 0, 0},
		{0, 0.5, 50 * time.Millisecond},
		{10 * time.Millisecond, 0.5, 40 * time.Millisecond},
		{50 * time.Millisecond, 0.5, 0},
		{60 * time.Millisecond, 0.5, 90 * time.Millisecond},
		{1234 * time.Millisecond, 0.25, 91 * time.Millisecond},
		{30 * time.Millisecond, 0, 70 * time.Millisecond},
	} {
		if got := untilPhase(c.elapsed, p, c.phase); got != c.want {
			t.Errorf("untilPhase(%v, %v, %v) = %v, want %v", c.elapsed, p, c.phase, got, c.want)
		}
	}
}

// TestTickerPhasesFromTheirMaking: two Tickers of phases 0 and 1/2 made
// together, whose first clients attach half a period apart (as the bots'
// ramp does), tick half a period apart (found by the session 6 review:
// phases counted from each first attach put both bursts together).
func TestTickerPhasesFromTheirMaking(t *testing.T) {
	const period = 100 * time.Millisecond
	var mu sync.Mutex
	var times [2][]time.Time
	tks := []*Ticker{NewTicker(period, 0), NewTicker(period, 0.5)}
	defer func() {
		for _, tk := range tks {
			tk.Stop()
		}
	}()
	for i, tk := range tks {
		c := loopClient(t, time.Now())
		c.hello.TimeoutMs = 60000
		c.cfg.OnTick = func(time.Time) { mu.Lock(); times[i] = append(times[i], time.Now()); mu.Unlock() }
		c.cfg.Ticker = tk
		tk.add(c)
		if i == 0 {
			time.Sleep(period / 2)
		}
	}
	time.Sleep(5 * period / 2)
	mu.Lock()
	defer mu.Unlock()
	if len(times[0]) == 0 || len(times[1]) == 0 {
		t.Fatalf("no ticks: %v", times)
	}
	d := times[1][0].Sub(times[0][0]) % period
	if d < 0 {
		d += period
	}
	d = min(d, period-d)
	if d < period/4 {
		t.Errorf("the two Tickers' bursts are %v apart, want about %v (phases 0 and 1/2)", d, period/2)
	}
}
