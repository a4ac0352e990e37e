package main

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
)

// TestEncodeRoundTrip: JSON → bytes gives the expected bytes, and bytes →
// JSON gives back every field of the input.
func TestEncodeRoundTrip(t *testing.T) {
	cases := []struct {
		name, in, want string // want: hex
	}{
		{"all fields", `{"packet":"SetTime","packet_id":33,"event_id":7,"hours":12,"minutes":30}`, "2107000000" + "0c1e"},
		{"by id, keys in any order", `{"minutes":59,"hours":23,"event_id":4294967295,"packet_id":33}`, "21ffffffff173b"},
		{"missing fields are zero", `{"packet":"SetTime"}`, "21000000000000"},
		{"exponents and spaces", " {\n\"packet\" : \"SetTime\", \"hours\": 1.2e1 }\n", "21000000000c00"},
	}
	for _, c := range cases {
		code, got, stderr := tool(t, []byte(c.in), "encode")
		if code != 0 || stderr != "" || hex.EncodeToString(got) != c.want {
			t.Errorf("%s: exit %d, stderr %q, bytes %x; want 0, nothing, %s", c.name, code, stderr, got, c.want)
			continue
		}
		code, js, stderr := tool(t, got, "decode")
		if code != 0 || stderr != "" {
			t.Errorf("%s: decode: exit %d, stderr %q", c.name, code, stderr)
			continue
		}
		keys, back := members(t, js)
		if want := []string{"packet", "packet_id", "event_id", "hours", "minutes"}; !reflect.DeepEqual(keys, want) {
			t.Errorf("%s: decode gives keys %v, want %v", c.name, keys, want)
		}
		_, in := members(t, []byte(c.in))
		for k, v := range in {
			if w, ok := back[k]; !ok || !sameNumber(v, w) {
				t.Errorf("%s: %s was %v, decodes as %v", c.name, k, v, w)
			}
		}
	}
}

// sameNumber compares JSON values, numbers by value (12 equals 1.2e1).
func sameNumber(a, b any) bool {
	x, ok1 := a.(json.Number)
	y, ok2 := b.(json.Number)
	if !ok1 || !ok2 {
		return a == b
	}
	fx, err1 := strconv.ParseFloat(string(x), 64)
	fy, err2 := strconv.ParseFloat(string(y), 64)
	return err1 == nil && err2 == nil && fx == fy
}

// TestEncodeRejects: bad JSON and packets the sender refuses exit 1 with a
// reason naming the key, and write nothing.
func TestEncodeRejects(t *testing.T) {
	free := strconv.Itoa(int(unregisteredID(t)))
	cases := []struct {
		name, in string
		want     []string
	}{
		{"empty input", ``, []string{"empty"}},
		{"not JSON", `{"packet":"SetTime",`, []string{"not JSON"}},
		{"two objects", `{"packet":"SetTime"}{"packet":"SetTime"}`, []string{"more than one"}},
		{"unknown key", `{"packet":"SetTime","hourz":1}`, []string{"SetTime.hourz", "unknown key"}},
		{"out of range", `{"packet":"SetTime","hours":256}`, []string{"SetTime.hours", "256"}},
		{"negative into unsigned", `{"packet":"SetTime","event_id":-1}`, []string{"SetTime.event_id", "-1"}},
		{"fraction into integer", `{"packet":"SetTime","minutes":1.5}`, []string{"SetTime.minutes", "fraction"}},
		{"wrong type", `{"packet":"SetTime","minutes":"5"}`, []string{"SetTime.minutes", "string"}},
		{"packet and packet_id disagree", `{"packet":"SetTime","packet_id":` + free + `}`, []string{"SetTime.packet_id", free}},
		{"unknown packet name", `{"packet":"NoSuchPacket"}`, []string{"packet", "NoSuchPacket"}},
		{"unknown packet id", `{"packet_id":` + free + `}`, []string{"packet_id", "unknown packet id"}},
		{"no packet", `{"hours":1}`, []string{"packet_id"}},
		{"sender's rule", `{"packet":"SetTime","hours":24}`, []string{"SetTime.hours", "0..=23"}},
	}
	for _, c := range cases {
		code, out, stderr := tool(t, []byte(c.in), "encode")
		checkRejected(t, c.name, code, out, stderr, c.want...)
	}
}
