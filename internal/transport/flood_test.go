package transport

import (
	"encoding/binary"
	"net"
	"net/netip"
	"slices"
	"sync"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// garbage returns datagrams of every kind the reader must refuse: random
// tokens, short datagrams, malformed hellos, oversize.
func garbage() [][]byte {
	bad := make([]byte, 64)
	binary.LittleEndian.PutUint64(bad[1:9], 0xDEADBEEF)
	bad[0] = wire.IDClientKeepalive
	short := []byte{wire.IDClientAck, 1, 2}
	hello := make([]byte, wire.ClientHelloLen)
	hello[0] = wire.IDClientHello // wrong magic
	return [][]byte{bad, short, hello, make([]byte, 1300)}
}

// BenchmarkReceiveGarbage is the reader's cost per refused datagram, after
// the system call: what 100,000 garbage datagrams per second cost on top of
// reading them (see BenchmarkLoopback in package conn for the read itself).
func BenchmarkReceiveGarbage(b *testing.B) {
	f := newFixture(&testing.T{}, Config{})
	defer f.srv.Close()
	cm := newCookieMaker(f.srv.secret[:])
	var h wire.ClientHello
	from := netip.MustParseAddrPort("127.0.0.1:9")
	g := garbage()
	now := time.Now()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		f.srv.receive(g[i%len(g)], from, now, cm, &h)
	}
}

// BenchmarkFlood measures a session's keepalive round trip through the real
// server while another socket sends garbage as fast as loopback takes it, up
// to 100,000 datagrams per second, against the same without the flood.
// Reported: rtt-p50-µs and rtt-p99-µs, and the garbage rate achieved.
func BenchmarkFlood(b *testing.B) {
	for _, flood := range []bool{false, true} {
		name := "quiet"
		if flood {
			name = "flood-100k"
		}
		b.Run(name, func(b *testing.B) {
			t := &testing.T{}
			f := newFixture(t, Config{InboundRate: 100000})
			defer f.srv.Close()
			c := dial(t, f)
			c.connect(f)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			// the tick, at 100 Hz
			wg.Add(1)
			go func() {
				defer wg.Done()
				tk := time.NewTicker(10 * time.Millisecond)
				defer tk.Stop()
				for {
					select {
					case <-stop:
						return
					case now := <-tk.C:
						f.srv.Tick(now)
					}
				}
			}()
			var sent int
			if flood {
				wg.Add(1)
				go func() {
					defer wg.Done()
					uc, _ := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
					defer uc.Close()
					to := net.UDPAddrFromAddrPort(f.srv.Addr())
					g := garbage()
					start := time.Now()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						// pace at 100,000 per second
						if due := start.Add(time.Duration(i) * 10 * time.Microsecond); time.Until(due) > 0 {
							time.Sleep(time.Until(due))
						}
						uc.WriteToUDP(g[i%len(g)], to)
						sent++
					}
				}()
			}
			var rtts []time.Duration
			start := time.Now()
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				c.keepalive(uint32(i + 1))
				for {
					d := c.read(time.Second)
					if d == nil {
						b.Fatal("no keepalive answer within 1 s")
					}
					if d[len(d)-5] == wire.IDServerKeepalive && binary.LittleEndian.Uint32(d[len(d)-4:]) == uint32(i+1) {
						break
					}
				}
				rtts = append(rtts, time.Since(t0))
			}
			elapsed := time.Since(start)
			close(stop)
			wg.Wait()
			slices.Sort(rtts)
			b.ReportMetric(float64(rtts[len(rtts)/2].Microseconds()), "rtt-p50-µs")
			b.ReportMetric(float64(rtts[len(rtts)*99/100].Microseconds()), "rtt-p99-µs")
			if flood {
				b.ReportMetric(float64(sent)/elapsed.Seconds(), "garbage/s")
			}
		})
	}
}
