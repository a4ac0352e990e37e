package transport

import (
	"net"
	"testing"
	"time"
)

// TestReaderGathersDatagrams: after a read that found one datagram the
// reader waits its pace (50 ms here, so that a loaded machine sends the
// burst well within it), and the datagrams sent meanwhile are read by one
// or two calls, not one call each. It fails if the reader reads on at once
// (each datagram is then its own read on an idle machine).
func TestReaderGathersDatagrams(t *testing.T) {
	f := newFixture(t, Config{ReadPace: 50 * time.Millisecond})
	uc, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(f.srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer uc.Close()
	bad := make([]byte, 16) // a session token no one has: counted, dropped
	bad[0] = 0x40           // not a ClientHello: the token decides
	waitIn := func(n uint64) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); f.srv.Stats().DatagramsIn < n; {
			if time.Now().After(deadline) {
				t.Fatalf("the reader took %d datagrams, want %d", f.srv.Stats().DatagramsIn, n)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}
	const burst = 30
	for round := range 3 {
		base := f.srv.Stats()
		if _, err := uc.Write(bad); err != nil {
			t.Fatal(err)
		}
		waitIn(base.DatagramsIn + 1) // the reader found one and waits
		for range burst {
			if _, err := uc.Write(bad); err != nil {
				t.Fatal(err)
			}
		}
		waitIn(base.DatagramsIn + 1 + burst)
		got := f.srv.Stats()
		if reads := got.Reads - base.Reads; reads > 3 {
			t.Errorf("round %d: %d datagrams took %d reads, want at most 3 (gathered while the reader waits)", round, 1+burst, reads)
		}
		if got.Drops["bad_token"]-base.Drops["bad_token"] != 1+burst {
			t.Errorf("round %d: %d dropped for their token, want %d", round, got.Drops["bad_token"]-base.Drops["bad_token"], 1+burst)
		}
	}
}
