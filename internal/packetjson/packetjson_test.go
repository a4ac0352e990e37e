package packetjson

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"dlmp/internal/wire"
)

// registered returns a fresh packet of every registered id.
func registered(t *testing.T) []wire.Packet {
	t.Helper()
	var ps []wire.Packet
	for _, id := range wire.IDs() {
		ps = append(ps, wire.New(id))
	}
	if len(ps) == 0 {
		t.Fatal("no packet registered in internal/wire")
	}
	return ps
}

// keys returns the top-level keys of a JSON object in order.
func keys(t *testing.T, js []byte) []string {
	t.Helper()
	var members []member
	members, err := readObject(js, "test", "")
	if err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, js)
	}
	var out []string
	for _, m := range members {
		out = append(out, m.key)
	}
	return out
}

// wantKeys is "packet", "packet_id", then the json tags in struct order.
func wantKeys(t *testing.T, p wire.Packet) []string {
	t.Helper()
	fields, err := fieldsOf(reflect.TypeOf(p).Elem(), true)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	want := []string{"packet", "packet_id"}
	for _, f := range fields {
		want = append(want, f.name)
	}
	return want
}

// TestEveryPacketRoundTrip fills every registered packet (and the fixture
// with every field kind) with pseudo-random values and checks that JSON
// carries them exactly: struct → JSON → struct gives the same struct and the
// same bytes, and the keys come in struct order.
func TestEveryPacketRoundTrip(t *testing.T) {
	ps := append(registered(t), new(kinds))
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p0 := range ps {
		mk := func() wire.Packet { return reflect.New(reflect.TypeOf(p0).Elem()).Interface().(wire.Packet) }
		for i := range 50 {
			p := mk()
			fill(rng, reflect.ValueOf(p).Elem())
			js, err := Marshal(p)
			if err != nil {
				t.Fatalf("%s: Marshal: %v", p.Name(), err)
			}
			if !json.Valid(js) {
				t.Fatalf("%s: invalid JSON %s", p.Name(), js)
			}
			if got, want := keys(t, js), wantKeys(t, p); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: keys %v, want %v", p.Name(), got, want)
			}
			q := mk()
			if err := UnmarshalInto(js, q); err != nil {
				t.Fatalf("%s #%d: UnmarshalInto(%s): %v", p.Name(), i, js, err)
			}
			if !reflect.DeepEqual(p, q) {
				t.Fatalf("%s #%d: round trip through\n%s\ngave %+v\nwant %+v", p.Name(), i, js, q, p)
			}
			if got, want := q.Append(nil), p.Append(nil); !bytes.Equal(got, want) {
				t.Fatalf("%s #%d: bytes %x, want %x", p.Name(), i, got, want)
			}
			r, err := Unmarshal(js) // selecting by name, as dlmp encode does
			if p.Name() == "Kinds" {
				continue // the fixture is not registered
			}
			if err != nil || !reflect.DeepEqual(p, r) {
				t.Fatalf("%s #%d: Unmarshal = %+v, %v; want %+v", p.Name(), i, r, err, p)
			}
		}
	}
}

// TestHideWithGarbage: a hide (active = 0) whose float fields hold NaN and
// ±Inf still gives valid JSON, and reading it back gives the same bytes.
func TestHideWithGarbage(t *testing.T) {
	hides := 0
	for _, p := range append(registered(t), new(kinds)) {
		v := reflect.ValueOf(p).Elem()
		fields, err := fieldsOf(v.Type(), true)
		if err != nil {
			t.Fatalf("%s: %v", p.Name(), err)
		}
		active := -1
		for i, f := range fields {
			if f.name == "active" && isInteger(v.FieldByIndex(f.index).Kind()) {
				active = i
			}
		}
		if active < 0 {
			continue
		}
		hides++
		garbage := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
		n := setFloats(v, garbage, 0)
		if n == 0 {
			continue
		}
		js, err := Marshal(p)
		if err != nil || !json.Valid(js) {
			t.Fatalf("%s hide: Marshal = %s, %v; want valid JSON", p.Name(), js, err)
		}
		for _, s := range []string{`"NaN"`, `"Inf"`, `"-Inf"`}[:min(n, 3)] {
			if !bytes.Contains(js, []byte(s)) {
				t.Errorf("%s hide: %s lacks %s", p.Name(), js, s)
			}
		}
		q := reflect.New(v.Type()).Interface().(wire.Packet)
		if err := UnmarshalInto(js, q); err != nil {
			t.Fatalf("%s hide: UnmarshalInto(%s): %v", p.Name(), js, err)
		}
		if got, want := q.Append(nil), p.Append(nil); !bytes.Equal(got, want) {
			t.Errorf("%s hide: bytes %x, want %x", p.Name(), got, want)
		}
		again, _ := Marshal(q)
		if !bytes.Equal(again, js) {
			t.Errorf("%s hide: second JSON\n%s\nwant\n%s", p.Name(), again, js)
		}
	}
	if hides == 0 {
		t.Fatal("no packet with an active field, not even the fixture")
	}
}

// setFloats sets every float in v (recursively) to garbage[i%len], counting.
func setFloats(v reflect.Value, garbage []float64, n int) int {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(garbage[n%len(garbage)])
		return n + 1
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() || v.Type().Field(i).Anonymous {
				n = setFloats(v.Field(i), garbage, n)
			}
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			n = setFloats(v.Index(i), garbage, n)
		}
	}
	return n
}

// TestFieldsOfRegistered: no registered packet uses a reserved or duplicate
// key or a field type the mapping cannot carry.
func TestFieldsOfRegistered(t *testing.T) {
	for _, p := range registered(t) {
		if _, err := fieldsOf(reflect.TypeOf(p).Elem(), true); err != nil {
			t.Errorf("%s: %v", p.Name(), err)
		}
		if _, err := Marshal(p); err != nil {
			t.Errorf("%s: Marshal of the zero packet: %v", p.Name(), err)
		}
	}
}

func TestKindsFields(t *testing.T) {
	got := wantKeys(t, new(kinds))
	want := strings.Fields("packet packet_id event_id active flag u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 text payload_len payload label triple entries_count entries chat NoTag")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keys %v\nwant %v", got, want)
	}
	fields, _ := fieldsOf(reflect.TypeFor[kinds](), true)
	lens := map[string]string{}
	for _, f := range fields {
		if f.lenOf != "" {
			lens[f.name] = f.lenOf
		}
	}
	if want := map[string]string{"payload_len": "payload", "entries_count": "entries"}; !reflect.DeepEqual(lens, want) {
		t.Errorf("length fields %v, want %v", lens, want)
	}
}
