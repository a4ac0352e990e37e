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

// readWait: the pace, cut short to end ReadLead before a known next tick
// when that comes first; the whole pace when the tick is unknown, further
// than the pace, or within ReadLead (or past).
func TestReadWait(t *testing.T) {
	now := time.Unix(1000, 0)
	at := func(d time.Duration) int64 { return now.Add(d).UnixNano() }
	pace := 5 * time.Millisecond
	for _, c := range []struct {
		name string
		next int64
		want time.Duration
	}{
		{"unknown", 0, pace},
		{"far", at(40 * time.Millisecond), pace},
		{"just past the pace", at(pace + ReadLead), pace},
		{"within the pace", at(3 * time.Millisecond), 3*time.Millisecond - ReadLead},
		{"at the lead", at(ReadLead), 0},
		{"within the lead", at(ReadLead / 2), pace},
		{"past", at(-time.Millisecond), pace},
	} {
		if got := readWait(now, c.next, pace); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// TestReaderReadsBeforeTick: a reader pacing itself at 400 ms, after a
// thin read, still reads what came before the next tick (due 50 ms after
// the last Flush), so the tick finds it. Fails when the reader waits its
// whole pace.
func TestReaderReadsBeforeTick(t *testing.T) {
	f := newFixture(t, Config{ReadPace: 400 * time.Millisecond})
	uc, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(f.srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer uc.Close()
	bad := make([]byte, 16) // a token no one has: counted, dropped
	bad[0] = 0x40
	waitIn := func(n uint64, within time.Duration) {
		t.Helper()
		for deadline := time.Now().Add(within); f.srv.Stats().DatagramsIn < n; {
			if time.Now().After(deadline) {
				t.Fatalf("the reader took %d datagrams within %v, want %d", f.srv.Stats().DatagramsIn, within, n)
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	f.srv.Flush(time.Now()) // the next tick is due in 50 ms
	if _, err := uc.Write(bad); err != nil {
		t.Fatal(err)
	}
	waitIn(1, 5*time.Second) // read; the reader waits for the tick, not its 400 ms
	if _, err := uc.Write(bad); err != nil {
		t.Fatal(err)
	}
	waitIn(2, 250*time.Millisecond)
}

// The environment sets the pace and the Arrived bound when the Config does
// not; an invalid or non-positive value leaves the default.
func TestPaceFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		pace, arrived         string
		wantPace, wantArrived time.Duration
	}{
		{"", "", ReadPace, ArrivedEvery},
		{"1ms", "2ms", time.Millisecond, 2 * time.Millisecond},
		{"fast", "-1ms", ReadPace, ArrivedEvery},
	} {
		t.Setenv(ReadPaceEnv, c.pace)
		t.Setenv(ArrivedEveryEnv, c.arrived)
		var cfg Config
		cfg.fill()
		if cfg.ReadPace != c.wantPace || cfg.ArrivedEvery != c.wantArrived {
			t.Errorf("env %q, %q: got %v, %v, want %v, %v", c.pace, c.arrived, cfg.ReadPace, cfg.ArrivedEvery, c.wantPace, c.wantArrived)
		}
		cfg = Config{ReadPace: 3 * time.Millisecond, ArrivedEvery: 4 * time.Millisecond}
		cfg.fill()
		if cfg.ReadPace != 3*time.Millisecond || cfg.ArrivedEvery != 4*time.Millisecond {
			t.Errorf("env %q, %q overrode the Config: got %v, %v", c.pace, c.arrived, cfg.ReadPace, cfg.ArrivedEvery)
		}
	}
}
