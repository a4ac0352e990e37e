package packetjson

import (
	"bytes"
	"testing"
)

// FuzzUnmarshal: reading any input never panics, and what reads prints as
// JSON that reads back to the same packet.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(`{"packet":"SetTime","packet_id":33,"event_id":7,"hours":12,"minutes":30}`))
	f.Add([]byte(`{"packet_id":33,"hours":1e1,"minutes":-0}`))
	f.Add([]byte(`{"packet":"SetTime","hours":1.5}`))
	f.Add([]byte(`{"packet":"SetTime","hours":"12","hours":1}`))
	f.Add([]byte(`[{"packet":"SetTime"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Unmarshal(data)
		if err != nil {
			return
		}
		js, err := Marshal(p)
		if err != nil {
			t.Fatalf("Marshal after Unmarshal(%q): %v", data, err)
		}
		q, err := Unmarshal(js)
		if err != nil {
			t.Fatalf("Unmarshal of own output %s: %v", js, err)
		}
		if a, b := p.Append(nil), q.Append(nil); !bytes.Equal(a, b) {
			t.Fatalf("%s: bytes %x, then %x", js, a, b)
		}
	})
}

// FuzzFixture does the same on the fixture with every field kind.
func FuzzFixture(f *testing.F) {
	f.Add([]byte(`{"u64":18446744073709551615,"f32":"NaN","text":{"hex":"00ff"},"payload":"00","entries":[{"x":-0}]}`))
	f.Add([]byte(`{"label":"\u0000é","triple":[1,"Inf",-1e-45],"payload_len":1,"payload":"ab"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := new(kinds)
		if UnmarshalInto(data, p) != nil {
			return
		}
		js, err := Marshal(p)
		if err != nil {
			t.Fatalf("Marshal after UnmarshalInto(%q): %v", data, err)
		}
		q := new(kinds)
		if err := UnmarshalInto(js, q); err != nil {
			t.Fatalf("UnmarshalInto of own output %s: %v", js, err)
		}
		again, _ := Marshal(q)
		if !bytes.Equal(js, again) {
			t.Fatalf("JSON changed:\n%s\n%s", js, again)
		}
	})
}
