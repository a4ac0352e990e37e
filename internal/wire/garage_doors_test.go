package wire

import (
	"math"
	"strings"
	"testing"
)

func validGarageDoors() Packet {
	return &GarageDoors{EventID: 5, Open: 1<<0 | 1<<17 | 1<<49}
}

func TestGarageDoorsExample(t *testing.T) {
	checkExample(t, "garage_doors.bin", validGarageDoors())
	checkTruncated(t, validGarageDoors().Append(nil), func() Packet { return new(GarageDoors) })
}

func TestGarageDoorsRules(t *testing.T) {
	open := func(m uint64) func(Packet) { return func(p Packet) { p.(*GarageDoors).Open = m } }
	cases := []ruleCase{
		{"all closed", open(0), ""},
		{"bit 49", open(1 << 49), ""},
		{"all 50 open", open(GarageMask), ""},
		{"bit 50", open(1 << 50), "open"},
		{"all 50 open and bit 50", open(GarageMask | 1<<50), "open"},
		{"bit 63", open(1 << 63), "open"},
		{"every bit", open(math.MaxUint64), "open"},
	}
	checkRules(t, "server", validGarageDoors, send, cases)
	checkRules(t, "client", validGarageDoors, recv, cases)
}

// TestCheckGarageMask: the exported helper names the caller's packet and
// field and the lowest bit that breaks the rule.
func TestCheckGarageMask(t *testing.T) {
	err := CheckGarageMask("ServerHello", "garages", 1<<49|1<<52|1<<60)
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	if e.Packet != "ServerHello" || e.Field != "garages" {
		t.Errorf("got packet %q field %q, want ServerHello garages", e.Packet, e.Field)
	}
	if !strings.Contains(e.Rule, "bit 52") {
		t.Errorf("rule %q does not name bit 52", e.Rule)
	}
	if err := CheckGarageMask("ServerHello", "garages", GarageMask); err != nil {
		t.Errorf("every garage open: %v", err)
	}
}

func FuzzGarageDoors(f *testing.F) {
	f.Add(validGarageDoors().Append(nil))
	f.Add([]byte{IDGarageDoors, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, func() Packet { return new(GarageDoors) })
		p := new(GarageDoors)
		if _, err := p.Parse(data); err == nil {
			if got, want := p.CheckRecv() == nil, p.Open>>Garages == 0; got != want {
				t.Fatalf("mask 0x%X: accepted = %v, want %v", p.Open, got, want)
			}
		}
	})
}

func BenchmarkGarageDoors(b *testing.B) {
	benchCodec(b, validGarageDoors(), func() Packet { return new(GarageDoors) })
}
