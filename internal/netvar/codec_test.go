package netvar

import (
	"errors"
	"math"
	"testing"

	"dlmp/internal/bits"
)

// roundTrip encodes value as an Update of v and decodes it.
func roundTrip(t *testing.T, s *Schema, v *Var, value any) (any, int) {
	t.Helper()
	out, warn, reject := v.spec.check(value)
	if warn != nil || reject != nil {
		t.Fatalf("%s: check(%v): warn %v reject %v", v.name, value, warn, reject)
	}
	b := AppendUpdate(nil, s, Target{Ref: Ref{KindObject, 7}}, v, out)
	w := bits.NewWriter(nil)
	writeTarget(&w, Target{Ref: Ref{KindObject, 7}})
	WriteVarEntry(&w, s, v, out)
	tg, got, val, err := DecodeUpdate(b, s)
	if err != nil {
		t.Fatalf("%s: DecodeUpdate(%x): %v", v.name, b, err)
	}
	if got != v || tg.Ref != (Ref{KindObject, 7}) {
		t.Fatalf("%s: decoded var %v target %v", v.name, got.name, tg)
	}
	if !Equal(val, out) {
		t.Fatalf("%s: got %#v, want %#v", v.name, val, out)
	}
	return val, w.Bits() - (KindBits + EntityIDBits) - int(s.idBits) - 1
}

func TestCodecsRoundTripAndWidth(t *testing.T) {
	r, _ := newTestRegistry(t)
	type tc struct {
		v     *Var
		value any
		bits  int // value bits after the present bit, -1 to skip
	}
	cases := []tc{
		{r.Register("bool").Bool(), true, 1},
		{r.Register("bit").Bit(), 1.0, 1},
		{r.Register("nibble").Nibble(), -8.0, 4},
		{r.Register("unibble").UNibble(), 15.0, 4},
		{r.Register("byte").Byte(), -128.0, 8},
		{r.Register("ubyte").UByte(), 255.0, 8},
		{r.Register("short").Short(), -32768.0, 16},
		{r.Register("ushort").UShort(), 65535.0, 16},
		{r.Register("int").Int(), float64(math.MinInt32), 32},
		{r.Register("uint").UInt(), float64(math.MaxUint32), 32},
		{r.Register("integer5").Integer(5), -16.0, 5},
		{r.Register("uinteger1").UInteger(1), 1.0, 1},
		{r.Register("uinteger32").UInteger(32), 4e9, 32},
		{r.Register("float").Float(), 1.5, 32},
		{r.Register("double").Double(), math.Pi, 64},
		{r.Register("long").Long(), 9007199254740992.0, 64},
		{r.Register("string").String(), "héllo", 8 * 7},
		{r.Register("string0").String(), "", 8},
		{r.Register("bstring").String(10), "abc", 16 + 24},
		{r.Register("vector_int").Vector(), Vector{1, -2, 32767}, 3 * 17},
		{r.Register("vector_float").Vector(), Vector{1.5, -2, 1e6}, 33 + 17 + 33},
		{r.Register("angle").Angle(), Angle{0, 90.5, -180}, 17 + 33 + 17},
		{r.Register("normal").Normal(), Vector{0, 1, -1}, 48},
		{r.Register("color_opaque").Color(), Color{1, 2, 3, 255}, 25},
		{r.Register("color_alpha").Color(), Color{1, 2, 3, 128}, 33},
		{r.Register("entity").Entity(), Ref{KindVehicle, 1999}, 18},
		{r.Register("player").Player(), Ref{KindPlayer, 999}, 10},
		{r.Register("data").Data(4), []byte{1, 2, 0, 0}, 32},
		{r.Register("auto_bool").Auto(), false, 4 + 1},
		{r.Register("auto_int").Auto(), -5.0, 4 + 32},
		{r.Register("auto_double").Auto(), 0.25, 4 + 64},
		{r.Register("auto_player").Auto(), Ref{KindPlayer, 3}, 4 + 10},
		{r.Register("auto_entity").Auto(), Ref{KindObject, 3}, 4 + 18},
		{r.Register("auto_bytes").Auto(), []byte("xy"), 4 + 16 + 16},
		{r.Register("table").Table(), Table{"a": 1.0, 2.0: Table{true: "x"}, "v": Vector{1, 2, 3}}, -1},
		{r.Register("auto_table").Auto(), Table{}, 4 + 16},
	}
	s := r.Seal()
	for _, c := range cases {
		_, n := roundTrip(t, s, c.v, c.value)
		if c.bits >= 0 && n != c.bits {
			t.Errorf("%s: %v costs %d bits, want %d", c.v.name, c.value, n, c.bits)
		}
		if m := c.v.spec.maxBits(); m >= 0 && n > m {
			t.Errorf("%s: %d bits exceed the worst case %d", c.v.name, n, m)
		}
	}
}

func TestCheckWarnsAndRejects(t *testing.T) {
	r, _ := newTestRegistry(t)
	cases := []struct {
		v      *Var
		in     any
		out    any
		warn   string // substring, "" for none
		reject bool
	}{
		{r.Register("a").UByte(), 300.0, 255.0, "clamped to 255", false},
		{r.Register("b").Nibble(), 2.7, 2.0, "truncated to 2", false},
		{r.Register("c").UByte(), "x", nil, "", true},
		{r.Register("d").Bool(), 1.0, nil, "", true},
		{r.Register("e").String(3), "abcdef", "abc", "given 6 bytes: truncated to 3", false},
		{r.Register("f").Data(2), []byte("abc"), []byte("ab"), "Data(2) given 3 bytes", false},
		{r.Register("g").Data(3), "a", []byte{'a', 0, 0}, "", false},
		{r.Register("h").String(), "a\x00b", "a", "NUL at byte 1", false},
		{r.Register("i").Float(), 0.1, float64(float32(0.1)), "", false},
		{r.Register("j").Player(), Ref{KindVehicle, 1}, nil, "", true},
		{r.Register("k").Bit(), 2.0, nil, "", true},
		{r.Register("l").Normal(), Vector{2, 0, 0}, Vector{1, 0, 0}, "clamped", false},
		{r.Register("m").UByte(), math.NaN(), nil, "", true},
	}
	for _, c := range cases {
		out, warn, reject := c.v.spec.check(c.in)
		if (reject != nil) != c.reject {
			t.Errorf("%s: check(%v) reject = %v, want reject %v", c.v.name, c.in, reject, c.reject)
			continue
		}
		if c.reject {
			continue
		}
		if c.warn == "" && warn != nil || c.warn != "" && (warn == nil || !contains(warn.Error(), c.warn)) {
			t.Errorf("%s: check(%v) warn = %v, want %q", c.v.name, c.in, warn, c.warn)
		}
		if !Equal(out, c.out) {
			t.Errorf("%s: check(%v) = %#v, want %#v", c.v.name, c.in, out, c.out)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestBoundedPrefixAbandonsMessage(t *testing.T) {
	r, _ := newTestRegistry(t)
	name := r.Register("name").String(4)
	flag := r.Register("zflag").Bool()
	s := r.Seal()
	// Hand-build a resync group whose bounded string prefix lies (9 > 4),
	// followed by a sibling entry that must not be applied.
	w := bits.NewWriter(nil)
	w.WriteBool(true)
	writeTarget(&w, Target{Ref: Ref{KindVehicle, 1}})
	w.WriteBool(true)
	w.WriteBits(uint64(name.id), s.idBits)
	w.WriteBool(true)
	w.WriteBits(9, CodecArgBits)
	w.WriteString("123456789")
	w.WriteBool(true)
	WriteVarEntry(&w, s, flag, true)
	w.WriteBool(false)
	w.WriteBool(false)
	var got []string
	err := DecodeResync(w.Bytes(), s, func(t Target, v *Var, value any) { got = append(got, v.name) })
	var pe *PrefixError
	if !errors.As(err, &pe) || pe.Len != 9 || pe.Max != 4 {
		t.Fatalf("err = %v, want a PrefixError 9 > 4", err)
	}
	if len(got) != 0 {
		t.Fatalf("applied %v after a lying prefix, want nothing", got)
	}
}

func TestUnknownIDAndMissingReaderAbandon(t *testing.T) {
	r, _ := newTestRegistry(t)
	a := r.Register("a").Bool()
	r.Register("b").Bool()
	r.Register("c").Bool()
	s := r.Seal()
	b := AppendUpdate(nil, s, Target{}, a, true)
	// id 3 does not exist among 3 vars (2-bit ids).
	w := bits.NewWriter(nil)
	writeTarget(&w, Target{})
	w.WriteBits(3, s.idBits)
	w.WriteBool(false)
	if _, _, _, err := DecodeUpdate(w.Bytes(), s); !errors.Is(err, ErrUnknownVar) {
		t.Fatalf("unknown id: err = %v, want ErrUnknownVar", err)
	}
	for n := range len(b) {
		if _, _, _, err := DecodeUpdate(b[:n], s); err == nil {
			t.Errorf("DecodeUpdate of %d of %d bytes succeeded", n, len(b))
		}
	}

	// A client registry without Read for a Custom-coded var drops it.
	srv, _ := newTestRegistry(t)
	cv := srv.Register("cust").Write(func(w *bits.Writer, v any) { w.WriteBits(uint64(v.(float64)), 3) }, 3).Read(func(r *bits.Reader) any { return float64(r.ReadBits(3)) }, 3)
	ss := srv.Seal()
	m, _, err := DecodeManifest(srv.Manifest())
	if err != nil {
		t.Fatal(err)
	}
	cl, lb := newTestRegistry(t)
	cs := cl.Bind(m)
	lb.wantLog(t, "synthetic", "cust")
	p := AppendUpdate(nil, ss, Target{}, cv, 5.0)
	if _, _, _, err := DecodeUpdate(p, cs); !errors.Is(err, ErrNoReader) {
		t.Fatalf("custom without Read: err = %v, want ErrNoReader", err)
	}
}

func TestEnumStrategies(t *testing.T) {
	r, lb := newTestRegistry(t)
	cases := []struct {
		name   string
		list   []any
		codec  Codec
		arg    uint32
		mapped bool
	}{
		{"rank", []any{1, 2, 3, 4}, CodecUInteger, 3, false},
		{"hundred", []any{100, 101}, CodecUInteger, 7, false},
		{"neg", []any{-1, 0, 1}, CodecInteger, 2, false},
		{"wide", []any{0, 1 << 30}, CodecCustom, 1, true},     // 31 - 1 > 24
		{"edge", []any{0, 1 << 24}, CodecUInteger, 25, false}, // 25 - 1 = 24: not more than 24
		{"pass", []any{"grey", "green", "blue", "orange", "red"}, CodecCustom, 3, true},
		{"mixed", []any{1, "x"}, CodecCustom, 1, true},
		{"huge", []any{0, 1 << 40}, CodecCustom, 1, true},
	}
	vars := map[string]*Var{}
	for _, c := range cases {
		vars[c.name] = r.Register(c.name).Enum(c.list)
	}
	s := r.Seal()
	for _, c := range cases {
		v := vars[c.name]
		if v.spec.codec != c.codec || v.spec.arg != c.arg || v.spec.mapped != c.mapped {
			t.Errorf("%s: got %s(%d) mapped=%v, want %s(%d) mapped=%v", c.name, v.spec.codec, v.spec.arg, v.spec.mapped, c.codec, c.arg, c.mapped)
		}
		if v.spec.batchable() == c.mapped {
			t.Errorf("%s: batchable = %v with mapped = %v", c.name, v.spec.batchable(), c.mapped)
		}
		for _, e := range c.list {
			n, _ := normalize(e)
			roundTrip(t, s, v, n)
		}
		if _, _, reject := v.spec.check(7777.0); reject == nil {
			t.Errorf("%s: 7777 outside the enum accepted", c.name)
		}
		if _, _, reject := v.spec.check(nil); reject != nil {
			t.Errorf("%s: nil refused: %v", c.name, reject)
		}
	}
	if r.Register("late").Enum([]any{1}); lb.count("after the registry sealed") != 1 {
		t.Errorf("register after seal not logged once")
	}
	r2, lb2 := newTestRegistry(t)
	r2.Register("dup").Enum([]any{1, 1.0})
	lb2.wantLog(t, "listed twice")
	r2.Register("empty").Enum(nil)
	lb2.wantLog(t, "empty list")
}

func TestDefaultCostsNoValueBits(t *testing.T) {
	r, _ := newTestRegistry(t)
	v := r.Register("rank").String().SetDefault("user")
	s := r.Seal()
	def := AppendUpdate(nil, s, Target{}, v, "user")
	val := AppendUpdate(nil, s, Target{}, v, "admin")
	nul := AppendUpdate(nil, s, Target{}, v, nil)
	if len(def) != 1 || len(nul) != 1 {
		t.Fatalf("default costs %d bytes, nil %d; want 1 each (2 + id + 2 bits)", len(def), len(nul))
	}
	if len(val) <= len(def) {
		t.Fatalf("a real value costs %d bytes, the default %d", len(val), len(def))
	}
	for _, c := range []struct {
		b    []byte
		want any
	}{{def, "user"}, {nul, nil}, {val, "admin"}} {
		_, _, got, err := DecodeUpdate(c.b, s)
		if err != nil || !Equal(got, c.want) {
			t.Errorf("decode %x: got %v (%v), want %v", c.b, got, err, c.want)
		}
	}
}

// FuzzDecodeResync feeds arbitrary payloads to the decoder: it must never
// panic, and whatever it accepts re-encodes to a payload that decodes to
// the same entries.
func FuzzDecodeResync(f *testing.F) {
	r := NewRegistry()
	r.SetLogger(discard())
	r.Register("a").Bool()
	r.Register("b").String(8)
	r.Register("c").Table()
	r.Register("d").Enum([]any{"x", "y", "z"})
	r.Register("e").Vector().SetDefault(Vector{1, 2, 3})
	s := r.Seal()
	rw := NewResyncWriter(s, 1<<20, func(p []byte) { f.Add(append([]byte(nil), p...)) })
	rw.Group(Target{Ref: PlayerRef(3), UserID: 77})
	for _, v := range s.Vars() {
		switch v.name {
		case "a":
			rw.Entry(v, true)
		case "b":
			rw.Entry(v, "hi")
		case "c":
			rw.Entry(v, Table{"k": 1.0})
		case "e":
			rw.Entry(v, Vector{1, 2, 3})
		}
	}
	rw.Flush()
	f.Fuzz(func(t *testing.T, in []byte) {
		type ent struct {
			t Target
			v *Var
			x any
		}
		var got []ent
		if err := DecodeResync(in, s, func(t Target, v *Var, x any) { got = append(got, ent{t, v, x}) }); err != nil {
			return
		}
		var outs [][]byte
		rw := NewResyncWriter(s, 1<<20, func(p []byte) { outs = append(outs, append([]byte(nil), p...)) })
		for _, e := range got {
			rw.Group(e.t)
			rw.Entry(e.v, e.x)
		}
		rw.Flush()
		var again []ent
		for _, out := range outs {
			if err := DecodeResync(out, s, func(t Target, v *Var, x any) { again = append(again, ent{t, v, x}) }); err != nil {
				t.Fatalf("re-encoded payload fails: %v", err)
			}
		}
		if len(again) != len(got) {
			t.Fatalf("re-decoded %d entries, want %d", len(again), len(got))
		}
		for i := range got {
			if again[i].v != got[i].v || !Equal(again[i].x, got[i].x) {
				t.Fatalf("entry %d: got %v %#v, want %v %#v", i, again[i].v.name, again[i].x, got[i].v.name, got[i].x)
			}
		}
	})
}
