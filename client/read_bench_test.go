package client

import (
	"net"
	"testing"

	"dlmp/internal/conn"
)

// BenchmarkReadBacklog reads a backlog of four datagrams from a client's
// socket (what a lagging bot finds on waking): "batch" as the reader does,
// one recvmmsg of up to readBatch, beside "each", one recvfrom per datagram
// as the reader did before. The server's side writes them in one sendmmsg
// per op in both.
func BenchmarkReadBacklog(b *testing.B) {
	const backlog = 4
	for _, batch := range []bool{false, true} {
		name := "each"
		if batch {
			name = "batch"
		}
		b.Run(name, func(b *testing.B) {
			srv, err := conn.Listen("127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				b.Fatal(err)
			}
			rc, err := conn.Wrap(uc)
			if err != nil {
				b.Fatal(err)
			}
			defer rc.Close()
			out := make([]conn.Message, backlog)
			for i := range out {
				out[i] = conn.Message{Buf: make([]byte, 300), Addr: rc.LocalAddr()}
			}
			ms := make([]conn.Message, readBatch)
			for i := range ms {
				ms[i].Buf = make([]byte, 1500)
			}
			buf := make([]byte, 1500)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := srv.WriteBatch(out); err != nil {
					b.Fatal(err)
				}
				for got := 0; got < backlog; {
					if batch {
						n, err := rc.ReadBatch(ms)
						if err != nil {
							b.Fatal(err)
						}
						got += n
						continue
					}
					if _, _, err := uc.ReadFromUDPAddrPort(buf); err != nil {
						b.Fatal(err)
					}
					got++
				}
			}
		})
	}
}
