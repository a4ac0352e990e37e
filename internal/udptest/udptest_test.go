package udptest

import (
	"net"
	"testing"
)

// Each sink is a distinct loopback socket that takes a datagram.
func TestSinksTakeDatagrams(t *testing.T) {
	sinks := Sinks(t, 3)
	seen := map[string]bool{}
	for _, a := range sinks {
		if !a.Addr().IsLoopback() || seen[a.String()] {
			t.Fatalf("sinks %v: want 3 distinct loopback addresses", sinks)
		}
		seen[a.String()] = true
		c, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(a))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Write([]byte("x")); err != nil {
			t.Fatalf("send to %v: %v", a, err)
		}
		c.Close()
	}
}
