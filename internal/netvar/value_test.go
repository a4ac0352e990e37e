package netvar

import (
	"errors"
	"math"
	"strings"
	"testing"

	"dlmp/internal/bits"
)

func TestNormalize(t *testing.T) {
	cases := []struct {
		in   any
		want any
		err  string
	}{
		{int(3), 3.0, ""},
		{int8(-3), -3.0, ""},
		{uint16(9), 9.0, ""},
		{uint64(1 << 40), float64(1 << 40), ""},
		{float32(0.5), 0.5, ""},
		{[]any{"a", 2}, Table{1.0: "a", 2.0: 2.0}, ""},
		{map[string]any{"k": int32(1), "gone": nil}, Table{"k": 1.0}, ""},
		{Table{true: Table{"v": Vector{1, 2, 3}}}, Table{true: Table{"v": Vector{1, 2, 3}}}, ""},
		{struct{}{}, nil, "no netvar form"},
		{Table{math.NaN(): 1}, nil, "table key NaN"},
		{Table{"f": func() {}}, nil, "no netvar form"},
	}
	for _, c := range cases {
		got, err := normalize(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("normalize(%#v) err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !Equal(got, c.want) {
			t.Errorf("normalize(%#v) = %#v, %v; want %#v", c.in, got, err, c.want)
		}
	}
	deep := Table{}
	cur := deep
	for range MaxTableDepth + 1 {
		next := Table{}
		cur["n"] = next
		cur = next
	}
	if _, err := normalize(deep); err == nil {
		t.Errorf("a table nested past MaxTableDepth was accepted")
	}
}

func TestEqual(t *testing.T) {
	cases := []struct {
		a, b any
		want bool
	}{
		{nil, nil, true},
		{1.0, 1.0, true},
		{math.NaN(), math.NaN(), true},
		{1.0, "1", false},
		{[]byte("a"), []byte("a"), true},
		{[]byte("a"), "a", false},
		{"a", []byte("a"), false},
		{Table{"a": 1.0}, Table{"a": 1.0}, true},
		{Table{"a": 1.0}, Table{"a": 2.0}, false},
		{Table{"a": 1.0}, Table{"b": 1.0}, false},
		{Table{}, nil, false},
		{Ref{KindPlayer, 1}, PlayerRef(1), true},
		{Color{1, 2, 3, 4}, Color{1, 2, 3, 5}, false},
	}
	for _, c := range cases {
		if got := Equal(c.a, c.b); got != c.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestTableCanonical: a table encodes to the same bytes whatever the map
// order, with keys of every kind.
func TestTableCanonical(t *testing.T) {
	r, _ := newTestRegistry(t)
	v := r.Register("t").Table()
	s := r.Seal()
	tbl := Table{"b": 1.0, "a": 2.0, 3.0: true, 0.5: "x", false: 1.0, true: 2.0, Vector{1, 0, 0}: 1.0, PlayerRef(2): "p", Color{1, 2, 3, 255}: 1.0}
	first := AppendUpdate(nil, s, Target{}, v, tbl)
	for range 20 {
		if got := AppendUpdate(nil, s, Target{}, v, tbl); string(got) != string(first) {
			t.Fatalf("table encoding depends on map order")
		}
	}
	_, _, got, err := DecodeUpdate(first, s)
	if err != nil || !Equal(got, tbl) {
		t.Fatalf("table round trip: %v %#v", err, got)
	}
}

func TestReadTableRejects(t *testing.T) {
	build := func(pairs func(w *bits.Writer)) []byte {
		w := bits.NewWriter(nil)
		pairs(&w)
		return w.Bytes()
	}
	cases := map[string][]byte{
		"repeated key": build(func(w *bits.Writer) {
			w.WriteBits(2, TableCountBits)
			for range 2 {
				writeAuto(w, "k", false)
				writeAuto(w, 1.0, false)
			}
		}),
		"table key": build(func(w *bits.Writer) {
			w.WriteBits(1, TableCountBits)
			writeAuto(w, Table{}, false)
			writeAuto(w, 1.0, false)
		}),
		"NaN key": build(func(w *bits.Writer) {
			w.WriteBits(1, TableCountBits)
			writeAuto(w, math.NaN(), false)
			writeAuto(w, 1.0, false)
		}),
		"count past the end": build(func(w *bits.Writer) { w.WriteBits(60000, TableCountBits) }),
		"unknown tag": build(func(w *bits.Writer) {
			w.WriteBits(1, TableCountBits)
			w.WriteBits(15, AutoTagBits)
		}),
		"data past the end": build(func(w *bits.Writer) {
			w.WriteBits(1, TableCountBits)
			writeAuto(w, "k", false)
			w.WriteBits(uint64(tagData), AutoTagBits)
			w.WriteBits(500, DataLenBits)
		}),
	}
	for name, b := range cases {
		r := bits.NewReader(b)
		if got := readTable(&r, 0); got != nil || r.Err() == nil {
			t.Errorf("%s: got %#v, err %v; want a failure", name, got, r.Err())
		}
	}
	// Nesting past the limit fails even when every table is well formed.
	w := bits.NewWriter(nil)
	for range MaxTableDepth + 2 {
		w.WriteBits(1, TableCountBits)
		writeAuto(&w, "n", false)
		w.WriteBits(uint64(tagTable), AutoTagBits)
	}
	w.WriteBits(0, TableCountBits)
	r := bits.NewReader(w.Bytes())
	if readTable(&r, 0); r.Err() == nil {
		t.Errorf("nesting past MaxTableDepth decoded")
	}
}

func TestRegisterRejectsNames(t *testing.T) {
	r, lb := newTestRegistry(t)
	for _, name := range []string{"", "a\x00b", strings.Repeat("x", 256)} {
		if v := r.Register(name); v.broken == nil {
			t.Errorf("Register(%q) accepted", name)
		}
	}
	r.Register("dup").Bool()
	second := r.Register("dup").UByte()
	lb.wantLog(t, "WARN", "registered again", "dup")
	s := r.Seal()
	if v, ok := s.Lookup("dup"); !ok || v != second {
		t.Errorf("the later registration does not replace the earlier")
	}
	if s.Len() != 1 {
		t.Errorf("broken registrations were networked: %d vars", s.Len())
	}
	if _, _, err := DecodeManifest([]byte{9, 0, 0, 0, 0}); !errors.Is(err, ErrManifest) {
		t.Errorf("manifest version 9: err %v", err)
	}
}
