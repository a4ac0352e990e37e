package packetjson

import (
	"math"
	"testing"

	"dlmp/internal/wire"
)

func TestMarshalExact(t *testing.T) {
	p := &kinds{
		header: header{EventID: 7}, Active: 1, Flag: true,
		U8: 255, U16: 65535, U32: 4294967295, U64: math.MaxUint64,
		I8: -128, I16: -32768, I32: -2147483648, I64: math.MinInt64,
		F32: 0.1, F64: 0.1,
		PayloadLen: 3, Payload: []byte{0x00, 0xAB, 0xFF},
		Label: "a\"b\\c\nd\x01<&>é", Triple: [3]float32{1e6, float32(math.Copysign(0, -1)), math.MaxFloat32},
		EntriesCount: 1, Entries: []kindsEntry{{X: math.SmallestNonzeroFloat32, N: 9}},
		NoTag: 3, Skipped: 9, hidden: 9,
	}
	copy(p.Text[:], "Hi\nthere")
	p.Chat.N, p.Chat.Buf[0], p.Chat.Buf[1] = 2, 'o', 'k'
	got, err := Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"packet":"Kinds","packet_id":255,"event_id":7,"active":1,"flag":true,` +
		`"u8":255,"u16":65535,"u32":4294967295,"u64":18446744073709551615,` +
		`"i8":-128,"i16":-32768,"i32":-2147483648,"i64":-9223372036854775808,` +
		`"f32":0.1,"f64":0.1,"text":"Hi\nthere","payload_len":3,"payload":"00abff",` +
		`"label":"a\"b\\c\nd\u0001<&>é","triple":[1e+06,-0,3.4028235e+38],` +
		`"entries_count":1,"entries":[{"x":1e-45,"n":9}],"chat":"ok","NoTag":3}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestMarshalFloats(t *testing.T) {
	cases := []struct {
		f32  float32
		want string
	}{
		{0, `0`},
		{1, `1`},
		{-1.5, `-1.5`},
		{0.1, `0.1`},
		{1234.5677, `1234.5677`},
		{1e6, `1e+06`},
		{float32(math.Copysign(0, -1)), `-0`},
		{math.MaxFloat32, `3.4028235e+38`},
		{math.SmallestNonzeroFloat32, `1e-45`},
		{float32(math.NaN()), `"NaN"`},
		{math.Float32frombits(0x7F800001), `"NaN"`}, // a signalling NaN
		{float32(math.Inf(1)), `"Inf"`},
		{float32(math.Inf(-1)), `"-Inf"`},
	}
	for _, c := range cases {
		if got := string(appendFloat(nil, float64(c.f32), 32)); got != c.want {
			t.Errorf("f32 %v prints %s, want %s", c.f32, got, c.want)
		}
	}
}

func TestMarshalText(t *testing.T) {
	cases := []struct {
		name string
		raw  string // the [8]byte content; the rest is NUL
		want string
	}{
		{"empty", "", `""`},
		{"text", "hello", `"hello"`},
		{"full, no NUL", "12345678", `"12345678"`},
		{"utf-8", "é€", `"é€"`},
		{"garbage after the NUL", "hi\x00yo", `{"hex":"686900796f"}`},
		{"not utf-8", "a\xffb", `{"hex":"61ff62"}`},
		{"control character", "a\x01b", `{"hex":"610162"}`},
		{"DEL", "\x7f", `{"hex":"7f"}`},
		{"tab, CR, LF", "a\tb\r\n", `"a\tb\r\n"`},
		{"binary", "\x9a\x02\xfe\x00\x00\x10", `{"hex":"9a02fe000010"}`},
		{"leading NUL then garbage", "\x00\x01", `{"hex":"0001"}`},
	}
	for _, c := range cases {
		var raw [8]byte
		copy(raw[:], c.raw)
		if got := string(appendText(nil, raw[:])); got != c.want {
			t.Errorf("%s: prints %s, want %s", c.name, got, c.want)
			continue
		}
		// And reads back to the same bytes.
		p := new(kinds)
		p.Text = [16]byte{}
		copy(p.Text[:], raw[:])
		js, _ := Marshal(p)
		q := new(kinds)
		if err := UnmarshalInto(js, q); err != nil || q.Text != p.Text {
			t.Errorf("%s: read back %q, %v; want %q", c.name, q.Text, err, p.Text)
		}
	}
}

func TestMarshalSetTime(t *testing.T) {
	got, err := Marshal(&wire.SetTime{EventID: 4294967295, Hours: 23, Minutes: 59})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"packet":"SetTime","packet_id":33,"event_id":4294967295,"hours":23,"minutes":59}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
