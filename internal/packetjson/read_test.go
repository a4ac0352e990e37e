package packetjson

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"dlmp/internal/wire"
)

// unregisteredID returns a packet id no packet uses.
func unregisteredID(t *testing.T) byte {
	t.Helper()
	for id := 255; id >= 0; id-- {
		if wire.New(byte(id)) == nil {
			return byte(id)
		}
	}
	t.Fatal("every packet id is registered")
	return 0
}

// checkErr asserts err is an *Error naming field ("" for the whole object)
// and that its text holds every part of want.
func checkErr(t *testing.T, name string, err error, field string, want ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: err = %v (%T), want *Error naming %q", name, err, err, field)
		return
	}
	if e.Field != field {
		t.Errorf("%s: error names field %q, want %q (%v)", name, e.Field, field, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q lacks %q", name, err, w)
		}
	}
}

func TestUnmarshalSelect(t *testing.T) {
	free := unregisteredID(t)
	cases := []struct {
		name, in, field string
		want            []string
	}{
		{"unknown name", `{"packet":"NoSuchPacket"}`, "packet", []string{"NoSuchPacket", "SetTime"}},
		{"unknown id", `{"packet_id":` + strconv.Itoa(int(free)) + `}`, "packet_id", []string{"unknown packet id"}},
		{"id and name disagree", `{"packet":"SetTime","packet_id":` + strconv.Itoa(int(free)) + `}`, "packet_id", []string{"SetTime", "33"}},
		{"neither", `{"hours":1}`, "", []string{"missing"}},
		{"name not a string", `{"packet":33}`, "packet", []string{"string"}},
		{"id not a number", `{"packet_id":"33"}`, "packet_id", []string{"u8", "string"}},
		{"id 256", `{"packet_id":256}`, "packet_id", []string{"0..=255", "256"}},
		{"id -1", `{"packet_id":-1}`, "packet_id", []string{"-1"}},
		{"id fraction", `{"packet_id":33.5}`, "packet_id", []string{"fraction"}},
		{"empty input", ``, "", []string{"empty"}},
		{"whitespace", " \n", "", []string{"empty"}},
		{"not JSON", `{"packet":`, "", []string{"not JSON"}},
		{"garbage", `hello`, "", []string{"not JSON"}},
		{"array", `[1,2]`, "", []string{"object"}},
		{"string", `"SetTime"`, "", []string{"object"}},
		{"two objects", `{"packet":"SetTime"} {"packet":"SetTime"}`, "", []string{"more than one"}},
		{"trailing garbage", `{"packet":"SetTime"} x`, "", []string{"not JSON"}},
		{"duplicate key", `{"packet":"SetTime","hours":1,"hours":2}`, "hours", []string{"twice"}},
	}
	for _, c := range cases {
		p, err := Unmarshal([]byte(c.in))
		if err == nil {
			t.Errorf("%s: Unmarshal(%s) = %+v, want an error", c.name, c.in, p)
			continue
		}
		checkErr(t, c.name, err, c.field, c.want...)
	}
}

func TestUnmarshalSetTime(t *testing.T) {
	cases := []struct {
		name, in string
		want     wire.SetTime
	}{
		{"by name", `{"packet":"SetTime","event_id":1,"hours":2,"minutes":3}`, wire.SetTime{EventID: 1, Hours: 2, Minutes: 3}},
		{"by id", `{"packet_id":33,"minutes":3}`, wire.SetTime{Minutes: 3}},
		{"both, any order", `{"minutes":3,"packet_id":33,"packet":"SetTime"}`, wire.SetTime{Minutes: 3}},
		{"missing fields are zero", `{"packet":"SetTime"}`, wire.SetTime{}},
		{"exponent and .0", `{"packet":"SetTime","hours":1e1,"minutes":5.0,"event_id":4.294967295E9}`, wire.SetTime{EventID: math.MaxUint32, Hours: 10, Minutes: 5}},
		{"rules are not checked here", `{"packet":"SetTime","hours":255}`, wire.SetTime{Hours: 255}},
	}
	for _, c := range cases {
		p, err := Unmarshal([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got, ok := p.(*wire.SetTime); !ok || *got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, p, c.want)
		}
	}
}

func TestUnmarshalBadValues(t *testing.T) {
	cases := []struct {
		name, in, field string
		want            []string
	}{
		{"unknown key", `{"bogus":1}`, "bogus", []string{"unknown key", "u8"}},
		{"wrong case", `{"U8":1}`, "U8", []string{"unknown key"}},
		{"u8 256", `{"u8":256}`, "u8", []string{"0..=255", "256"}},
		{"u8 -1", `{"u8":-1}`, "u8", []string{"-1"}},
		{"u8 fraction", `{"u8":1.5}`, "u8", []string{"fraction", "1.5"}},
		{"u8 string", `{"u8":"1"}`, "u8", []string{"string"}},
		{"u8 null", `{"u8":null}`, "u8", []string{"null"}},
		{"u8 bool", `{"u8":true}`, "u8", []string{"boolean"}},
		{"u8 object", `{"u8":{}}`, "u8", []string{"object"}},
		{"u16 65536", `{"u16":65536}`, "u16", []string{"65536"}},
		{"u32 2^32", `{"u32":4294967296}`, "u32", []string{"4294967296"}},
		{"u64 2^64", `{"u64":18446744073709551616}`, "u64", []string{"18446744073709551616"}},
		{"u64 negative", `{"u64":-1}`, "u64", []string{"-1"}},
		{"i8 128", `{"i8":128}`, "i8", []string{"-128..=127"}},
		{"i8 -129", `{"i8":-129}`, "i8", []string{"-129"}},
		{"i32 2^31", `{"i32":2147483648}`, "i32", []string{"2147483648"}},
		{"i64 -2^63-1", `{"i64":-9223372036854775809}`, "i64", []string{"-9223372036854775809"}},
		{"huge exponent", `{"u32":1e999999999}`, "u32", []string{"1e999999999"}},
		{"small fraction", `{"u32":1e-3}`, "u32", []string{"fraction"}},
		{"f32 out of range", `{"f32":1e39}`, "f32", []string{"out of range", "f32"}},
		{"f32 lower-case nan", `{"f32":"nan"}`, "f32", []string{"NaN"}},
		{"f32 +Inf", `{"f32":"+Inf"}`, "f32", []string{"Inf"}},
		{"f32 bool", `{"f32":false}`, "f32", []string{"boolean"}},
		{"flag number", `{"flag":1}`, "flag", []string{"true or false"}},
		{"text too long", `{"text":"12345678901234567"}`, "text", []string{"17 bytes", "16"}},
		{"text with NUL", `{"text":"a\u0000b"}`, "text", []string{"NUL"}},
		{"text number", `{"text":5}`, "text", []string{"string"}},
		{"text bad hex", `{"text":{"hex":"zz"}}`, "text.hex", []string{"hex"}},
		{"text hex too long", `{"text":{"hex":"0102030405060708090a0b0c0d0e0f1011"}}`, "text", []string{"17 bytes"}},
		{"text object other key", `{"text":{"base64":"AA=="}}`, "text", []string{"hex"}},
		{"payload odd hex", `{"payload":"abc"}`, "payload", []string{"hex"}},
		{"payload not hex", `{"payload":"zz"}`, "payload", []string{"hex"}},
		{"payload array", `{"payload":[1,2]}`, "payload", []string{"hex string"}},
		{"payload_len disagrees", `{"payload":"0001","payload_len":3}`, "payload_len", []string{"3", "2"}},
		{"entries_count disagrees", `{"entries":[],"entries_count":1}`, "entries_count", []string{"1", "0"}},
		{"triple too short", `{"triple":[1,2]}`, "triple", []string{"exactly 3"}},
		{"triple not array", `{"triple":1}`, "triple", []string{"array"}},
		{"nested bad value", `{"entries":[{"n":1},{"n":70000}]}`, "entries[1].n", []string{"70000"}},
		{"nested unknown key", `{"entries":[{"y":1}]}`, "entries[0].y", []string{"unknown key"}},
		{"nested duplicate key", `{"entries":[{"n":1,"n":2}]}`, "entries[0].n", []string{"twice"}},
		{"label not utf-8 hex", `{"label":{"hex":"4"}}`, "label.hex", []string{"hex"}},
		{"wrong packet name", `{"packet":"SetTime"}`, "packet", []string{"SetTime", "Kinds"}},
		{"wrong packet id", `{"packet_id":33}`, "packet_id", []string{"SetTime", "255"}},
		{"text type too long", `{"chat":"` + strings.Repeat("x", 33) + `"}`, "chat", []string{"33 bytes", "at most 32"}},
		{"text type number", `{"chat":1}`, "chat", []string{"string"}},
		{"text type as its parts", `{"chat":{"len":1}}`, "chat", []string{"hex"}},
		{"skipped field", `{"Skipped":1}`, "Skipped", []string{"unknown key"}},
		{"unexported field", `{"hidden":1}`, "hidden", []string{"unknown key"}},
	}
	for _, c := range cases {
		err := UnmarshalInto([]byte(c.in), new(kinds))
		if err == nil {
			t.Errorf("%s: UnmarshalInto(%s) succeeded, want an error naming %q", c.name, c.in, c.field)
			continue
		}
		checkErr(t, c.name, err, c.field, c.want...)
		if c.field != "" && !strings.Contains(err.Error(), "Kinds."+c.field) {
			t.Errorf("%s: error %q does not name Kinds.%s", c.name, err, c.field)
		}
	}
}

func TestUnmarshalGood(t *testing.T) {
	in := `{"packet":"Kinds","u64":18446744073709551615,"i64":-9223372036854775808,"f32":"-Inf","f64":"NaN",` +
		`"triple":[0.1,"Inf",-0],"text":{"hex":"6869"},"label":{"hex":"ff"},"payload":"ABcd",` +
		`"entries":[{"x":1}],"u8":2.55e2,"i8":-1.28e2,"chat":{"hex":"ff00"}}`
	p := &kinds{Skipped: 9, hidden: 8}
	if err := UnmarshalInto([]byte(in), p); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"u64", p.U64, uint64(math.MaxUint64)},
		{"i64", p.I64, int64(math.MinInt64)},
		{"f32", p.F32, float32(math.Inf(-1))},
		{"f64 is NaN", math.IsNaN(p.F64), true},
		{"triple", p.Triple, [3]float32{0.1, float32(math.Inf(1)), 0}},
		{"-0 keeps its sign", math.Signbit(float64(p.Triple[2])), true},
		{"text", string(p.Text[:3]), "hi\x00"},
		{"label", p.Label, "\xff"},
		{"payload", string(p.Payload), "\xab\xcd"},
		{"payload_len computed", p.PayloadLen, uint16(2)},
		{"entries_count computed", p.EntriesCount, uint8(1)},
		{"entries", p.Entries, []kindsEntry{{X: 1}}},
		{"u8", p.U8, uint8(255)},
		{"i8", p.I8, int8(-128)},
		{"chat", string(p.Chat.Buf[:p.Chat.N]), "\xff\x00"},
		{"skipped untouched", p.Skipped, uint32(9)},
		{"hidden untouched", p.hidden, uint32(8)},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}
