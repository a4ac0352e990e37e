// Package udptest gives tests and benchmarks UDP sockets to send to on
// loopback, as net/http/httptest gives them servers.
package udptest

import (
	"net"
	"net/netip"
	"testing"
)

// Sinks returns the addresses of n loopback UDP sockets nobody reads
// (64 KiB receive buffers, so the kernel drops what overflows), closed
// when tb ends: where a benchmark's sessions send.
func Sinks(tb testing.TB, n int) []netip.AddrPort {
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
