package client

import (
	"net"
	"testing"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// BenchmarkReadArrivals is one datagram arriving at an idle client and
// handled by its reader (a fresh PlayerMove of a player not shown, queued
// for OnPacket, the loop woken): "each", conn.ReadBatch as before decision
// 0337 (the recvmmsg that returns the datagram, then one that finds the
// socket empty before the wait), beside "rawread", the Linux reader (one
// recvmmsg a wake-up). The server's write and the wake-ups are in both;
// cpu-ns/op is the process's user and system time.
func BenchmarkReadArrivals(b *testing.B) {
	for _, name := range []string{"each", "rawread"} {
		b.Run(name, func(b *testing.B) {
			now := time.Now()
			c := benchClient(now)
			srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			c.server = srv.LocalAddr().(*net.UDPAddr).AddrPort()
			if c.uc, err = net.DialUDP("udp4", nil, srv.LocalAddr().(*net.UDPAddr)); err != nil {
				b.Fatal(err)
			}
			if c.rc, err = conn.Wrap(c.uc); err != nil {
				b.Fatal(err)
			}
			c.kick = make(chan struct{}, 1)
			c.cfg.OnPacket = func(wire.Packet) {}
			ms := make([]conn.Message, readBatch)
			for i := range ms {
				ms[i].Buf = make([]byte, 1500)
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				if name == "each" {
					c.readEach(ms)
				} else {
					c.read(ms)
				}
			}()
			defer func() {
				c.mu.Lock()
				c.endLocked(0, ErrClosed)
				c.mu.Unlock()
				<-done
				c.uc.Close()
			}()
			to := c.uc.LocalAddr().(*net.UDPAddr).AddrPort()
			m := wire.PlayerMove{PlayerID: 7, State: wire.StateOnFoot, Health: 100}
			var d []byte
			cpu0 := cpuTime(b)
			ops := 0
			for b.Loop() {
				m.Seq++
				d = m.Append(d[:0])
				if _, err := srv.WriteToUDPAddrPort(d, to); err != nil {
					b.Fatal(err)
				}
				<-c.kick
				c.mu.Lock()
				c.pending = c.pending[:0]
				c.mu.Unlock()
				ops++
			}
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(ops), "cpu-ns/op")
			if c.stats.DatagramsIn != ops {
				b.Fatalf("got %d datagrams handled, want %d", c.stats.DatagramsIn, ops)
			}
		})
	}
}
