package client

import (
	"net"
	"testing"

	"dlmp/internal/wire"
)

// BenchmarkSendSync writes one PlayerSync datagram (75 bytes, what each
// bot sends per tick) to a local server socket that never reads (the
// kernel drops past its buffer, the same for both): "sendto" on an
// unconnected socket with the address per datagram, as the client did
// before, beside "connected", write on a socket connected to the server.
func BenchmarkSendSync(b *testing.B) {
	d := (&wire.PlayerSync{Token: 1, Seq: 1, State: wire.StateOnFoot, Health: 100}).Append(nil)
	for _, connected := range []bool{false, true} {
		name := "sendto"
		if connected {
			name = "connected"
		}
		b.Run(name, func(b *testing.B) {
			srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			to := srv.LocalAddr().(*net.UDPAddr)
			var uc *net.UDPConn
			if connected {
				uc, err = net.DialUDP("udp4", nil, to)
			} else {
				uc, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			}
			if err != nil {
				b.Fatal(err)
			}
			defer uc.Close()
			ap := to.AddrPort()
			b.ReportAllocs()
			for b.Loop() {
				if connected {
					_, err = uc.Write(d)
				} else {
					_, err = uc.WriteToUDPAddrPort(d, ap)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
