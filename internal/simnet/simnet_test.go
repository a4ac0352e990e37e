package simnet

import (
	"math"
	"testing"
	"time"
)

var t0 = time.Unix(0, 0)

func run(cfg Config, seed uint64, n int) (Stats, []int, []time.Duration) {
	l := New(cfg, seed)
	for i := range n {
		l.Send(t0.Add(time.Duration(i)*time.Millisecond), []byte{byte(i), byte(i >> 8), byte(i >> 16)})
	}
	var order []int
	var delays []time.Duration
	now := t0
	for l.InFlight() > 0 {
		now = l.Next()
		l.Deliver(now, func(b []byte) {
			i := int(b[0]) | int(b[1])<<8 | int(b[2])<<16
			order = append(order, i)
			delays = append(delays, now.Sub(t0.Add(time.Duration(i)*time.Millisecond)))
		})
	}
	return l.Stats(), order, delays
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1, Duplicate: 0.05, Reorder: 0.1}
	a, oa, _ := run(cfg, 7, 2000)
	b, ob, _ := run(cfg, 7, 2000)
	if a != b || len(oa) != len(ob) {
		t.Fatalf("same seed, different runs: %+v vs %+v", a, b)
	}
	for i := range oa {
		if oa[i] != ob[i] {
			t.Fatalf("same seed, delivery %d differs: %d vs %d", i, oa[i], ob[i])
		}
	}
	c, _, _ := run(cfg, 8, 2000)
	if a == c {
		t.Errorf("different seeds gave identical stats %+v", a)
	}
}

func TestRates(t *testing.T) {
	const n = 20000
	cases := []struct {
		name string
		cfg  Config
	}{
		{"perfect", Config{}},
		{"loss 10%", Config{Loss: 0.1}},
		{"dup 5%", Config{Duplicate: 0.05}},
		{"reorder 20%", Config{Latency: 40 * time.Millisecond, Reorder: 0.2}},
	}
	near := func(got int, p float64) bool { return math.Abs(float64(got)/n-p) < 0.01 }
	for _, c := range cases {
		st, order, delays := run(c.cfg, 1, n)
		if !near(st.Lost, c.cfg.Loss) || !near(st.Duplicated, c.cfg.Duplicate) || !near(st.Reordered, c.cfg.Reorder) {
			t.Errorf("%s: stats %+v off the configured rates", c.name, st)
		}
		if got, want := len(order), n-st.Lost+st.Duplicated; got != want {
			t.Errorf("%s: delivered %d, want %d", c.name, got, want)
		}
		inversions := 0
		for i := 1; i < len(order); i++ {
			if order[i] < order[i-1] {
				inversions++
			}
		}
		if (c.cfg.Reorder > 0) != (inversions > 0) {
			t.Errorf("%s: %d order inversions", c.name, inversions)
		}
		for _, d := range delays {
			if d < c.cfg.Latency {
				t.Fatalf("%s: delivered after %v, before the latency %v", c.name, d, c.cfg.Latency)
			}
		}
	}
}

func TestJitterAndMTU(t *testing.T) {
	l := New(Config{Latency: 100 * time.Millisecond, Jitter: 20 * time.Millisecond, MTU: 10}, 3)
	l.Send(t0, make([]byte, 11))
	l.Send(t0, make([]byte, 10))
	if st := l.Stats(); st.TooBig != 1 || l.InFlight() != 1 {
		t.Fatalf("MTU 10: stats %+v in flight %d, want one too big and one on the wire", st, l.InFlight())
	}
	at := l.Next().Sub(t0)
	if at < 100*time.Millisecond || at >= 120*time.Millisecond {
		t.Errorf("arrival at %v, want within [100 ms, 120 ms)", at)
	}
	got := 0
	l.Deliver(l.Next().Add(-1), func([]byte) { got++ })
	if got != 0 {
		t.Errorf("delivered before its time")
	}
	l.Deliver(l.Next(), func(b []byte) { got += len(b) })
	if got != 10 {
		t.Errorf("delivered %d bytes, want 10", got)
	}
}
