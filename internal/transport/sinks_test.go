package transport

import (
	"net"
	"net/netip"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// sinkAddrs returns the addresses of n loopback UDP sockets nobody reads
// (64 KiB receive buffers, so the kernel drops what overflows), closed
// when tb ends: where a benchmark's sessions send.
func sinkAddrs(tb testing.TB, n int) []netip.AddrPort {
	tb.Helper()
	var sinks []netip.AddrPort
	for range n {
		uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { uc.Close() })
		uc.SetReadBuffer(64 << 10)
		sinks = append(sinks, uc.LocalAddr().(*net.UDPAddr).AddrPort())
	}
	return sinks
}

// nopWorld admits everyone and ignores packets.
type nopWorld struct{}

func (nopWorld) Join(*Session, *wire.ServerHello) bool   { return true }
func (nopWorld) Packet(*Session, wire.Packet, time.Time) {}
func (nopWorld) Leave(*Session, uint8)                   {}
