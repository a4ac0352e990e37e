package client

import (
	"net"
	"syscall"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTicks is the CPU that 200 clients' ticks cost (OnTick setting
// a PlayerSync, the tick, the write) with a timer and a woken loop
// goroutine each ("timers", as before decision 0336) beside 10 shared
// Tickers ("tickers", as the bots). The clients tick at 200 Hz; one op
// is one period of wall time; the figure is cpu-ns per client tick, the
// process's user and system time (the Go runtime's timers and scheduling
// included). The sockets are not connected: the write fails at once, so
// the kernel's delivery, the same in both, is left out.
func BenchmarkTicks(b *testing.B) {
	const n, hz = 200, 200
	for _, shared := range []bool{false, true} {
		name := "timers"
		if shared {
			name = "tickers"
		}
		b.Run(name, func(b *testing.B) {
			var ts []*Ticker
			if shared {
				for i := range 10 {
					ts = append(ts, NewTicker(0, float64(i)/10))
				}
			}
			cs := make([]*Client, n)
			for i := range cs {
				c := benchClient(time.Now())
				uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
				if err != nil {
					b.Fatal(err)
				}
				c.uc, c.kick, cs[i] = uc, make(chan struct{}, 1), c
				c.hello.SyncHz, c.hello.TimeoutMs = hz, 60000
				c.cfg.OnTick = func(time.Time) {
					c.SetSync(wire.PlayerSync{State: wire.StateOnFoot, X: 1, Health: 100})
				}
				if shared {
					c.cfg.Ticker = ts[i%len(ts)]
				}
				c.wg.Add(1)
				go c.loop()
				if shared {
					c.cfg.Ticker.add(c)
				}
			}
			defer func() {
				for _, c := range cs {
					c.Close()
				}
				for _, t := range ts {
					t.Stop()
				}
			}()
			period := time.NewTicker(time.Second / hz)
			defer period.Stop()
			<-period.C
			cpu0 := cpuTime(b)
			ops := 0
			for b.Loop() {
				<-period.C
				ops++
			}
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(ops*n), "cpu-ns/tick")
			sent := 0
			for _, c := range cs {
				c.mu.Lock()
				sent += c.stats.DatagramsOut
				c.mu.Unlock()
			}
			b.ReportMetric(float64(sent)/float64(ops*n), "sent/tick")
		})
	}
}
