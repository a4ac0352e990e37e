package wire

import (
	"errors"
	"testing"
)

func TestSplitter(t *testing.T) {
	var d []byte
	d = (&ClientAck{Token: 9, Ack: 3}).Append(d)
	d = (&PickupTouch{Token: 9, EventID: 4, PickupID: 77}).Append(d)
	d = (&ClientKeepalive{Token: 9, Ping: 5}).Append(d)
	var s Splitter
	var names []string
	for rest := d; len(rest) > 0; {
		p, n, err := s.Next(rest)
		if err != nil {
			t.Fatalf("Next at %d: %v", len(d)-len(rest), err)
		}
		names = append(names, p.Name())
		if pt, ok := p.(*PickupTouch); ok && pt.PickupID != 77 {
			t.Fatalf("PickupTouch.pickup_id = %d, want 77", pt.PickupID)
		}
		rest = rest[n:]
	}
	if len(names) != 3 || names[0] != "ClientAck" || names[1] != "PickupTouch" || names[2] != "ClientKeepalive" {
		t.Fatalf("split into %v", names)
	}
	if _, _, err := s.Next([]byte{0xFF, 1, 2}); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown id: %v", err)
	}
	if _, _, err := s.Next(d[:5]); !errors.Is(err, ErrTruncated) {
		t.Fatalf("cut packet: %v", err)
	}
	if _, _, err := s.Next(nil); !errors.Is(err, ErrTruncated) {
		t.Fatalf("empty: %v", err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		for rest := d; len(rest) > 0; {
			_, n, err := s.Next(rest)
			if err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per datagram, want 0", allocs)
	}
}

func FuzzSplitter(f *testing.F) {
	f.Add((&ClientAck{Token: 1}).Append((&SetTime{EventID: 1}).Append(nil)))
	f.Add([]byte{IDFragment, 1, 0, 0, 0, 1, 3, 0, 1, 2, 3})
	f.Fuzz(func(t *testing.T, d []byte) {
		var s Splitter
		for len(d) > 0 {
			p, n, err := s.Next(d)
			if err != nil {
				return
			}
			if n <= 0 || n > len(d) {
				t.Fatalf("%s: size %d of %d bytes", p.Name(), n, len(d))
			}
			d = d[n:]
		}
	})
}
