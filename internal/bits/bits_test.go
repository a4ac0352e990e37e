package bits

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestLayoutLSBFirst(t *testing.T) {
	w := NewWriter(nil)
	w.WriteBits(1, 1)      // bit 0
	w.WriteBits(0b10, 2)   // bits 1..2
	w.WriteBits(0x1F, 5)   // bits 3..7
	w.WriteBits(0xABC, 12) // bits 8..19
	got := w.Bytes()
	want := []byte{0b11111101, 0xBC, 0x0A}
	if string(got) != string(want) {
		t.Fatalf("got %08b, want %08b", got, want)
	}
	if w.Bits() != 20 {
		t.Fatalf("got %d bits, want 20", w.Bits())
	}
}

func TestAlignedMatchesLittleEndian(t *testing.T) {
	w := NewWriter(nil)
	w.WriteBits(0x0102030405060708, 64)
	w.WriteBits(0xA1B2, 16)
	want := binary.LittleEndian.AppendUint64(nil, 0x0102030405060708)
	want = binary.LittleEndian.AppendUint16(want, 0xA1B2)
	if string(w.Bytes()) != string(want) {
		t.Fatalf("got %x, want %x", w.Bytes(), want)
	}
}

func TestRoundTripEveryWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for start := uint(0); start < 8; start++ {
		for n := uint(1); n <= 64; n++ {
			v := rng.Uint64()
			if n < 64 {
				v &= 1<<n - 1
			}
			w := NewWriter(nil)
			if start > 0 {
				w.WriteBits(0x55, start)
			}
			w.WriteBits(v, n)
			r := NewReader(w.Bytes())
			if start > 0 {
				r.ReadBits(start)
			}
			if got := r.ReadBits(n); got != v || r.Err() != nil {
				t.Fatalf("start %d width %d: got %x (%v), want %x", start, n, got, r.Err(), v)
			}
		}
	}
}

func TestSignedAndFloats(t *testing.T) {
	w := NewWriter(nil)
	w.WriteInt(-3, 4)
	w.WriteInt(7, 4)
	w.WriteInt(math.MinInt32, 32)
	w.WriteBool(true)
	w.WriteF32(-1.5)
	w.WriteF64(math.Pi)
	w.WriteBytes([]byte("hi"))
	w.WriteString("yo")
	r := NewReader(w.Bytes())
	if got := r.ReadInt(4); got != -3 {
		t.Errorf("ReadInt(4) got %d, want -3", got)
	}
	if got := r.ReadInt(4); got != 7 {
		t.Errorf("ReadInt(4) got %d, want 7", got)
	}
	if got := r.ReadInt(32); got != math.MinInt32 {
		t.Errorf("ReadInt(32) got %d, want %d", got, math.MinInt32)
	}
	if got := r.ReadBool(); !got {
		t.Errorf("ReadBool got false, want true")
	}
	if got := r.ReadF32(); got != -1.5 {
		t.Errorf("ReadF32 got %v, want -1.5", got)
	}
	if got := r.ReadF64(); got != math.Pi {
		t.Errorf("ReadF64 got %v, want pi", got)
	}
	p := make([]byte, 4)
	if !r.ReadBytes(p) || string(p) != "hiyo" {
		t.Errorf("ReadBytes got %q, want %q", p, "hiyo")
	}
	if r.Err() != nil {
		t.Fatalf("Err() = %v", r.Err())
	}
}

func TestReadPastEndFailsCleanly(t *testing.T) {
	r := NewReader([]byte{0xFF})
	if got := r.ReadBits(5); got != 0x1F {
		t.Fatalf("got %x, want 1f", got)
	}
	if got := r.ReadBits(4); got != 0 || !errors.Is(r.Err(), ErrShort) {
		t.Fatalf("read past end got %x err %v, want 0, ErrShort", got, r.Err())
	}
	// Sticky: a read that would fit also fails now.
	if got := r.ReadBits(1); got != 0 || r.Remaining() != 0 {
		t.Fatalf("read after failure got %x, remaining %d; want 0, 0", got, r.Remaining())
	}
	p := []byte{9, 9}
	if r.ReadBytes(p) || p[0] != 0 || p[1] != 0 {
		t.Fatalf("ReadBytes after failure got %v, want zeroed and false", p)
	}
	r2 := NewReader([]byte{1, 2})
	if r2.ReadBits(0); !errors.Is(r2.Err(), ErrWidth) {
		t.Fatalf("ReadBits(0) err %v, want ErrWidth", r2.Err())
	}
	r3 := NewReader([]byte{1, 2})
	if r3.ReadBits(65); !errors.Is(r3.Err(), ErrWidth) {
		t.Fatalf("ReadBits(65) err %v, want ErrWidth", r3.Err())
	}
}

func TestWriterNoAllocWithCapacity(t *testing.T) {
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		w := NewWriter(buf[:0])
		w.WriteBits(5, 3)
		w.WriteF64(1)
		w.WriteString("abc")
		w.WriteBool(true)
	})
	if allocs != 0 {
		t.Fatalf("got %v allocs, want 0", allocs)
	}
}

// FuzzRoundTrip writes a sequence of (value, width) pairs derived from the
// input and reads them back; it also reads the raw input with the same
// widths to check nothing panics past the end.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{64, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Fuzz(func(t *testing.T, in []byte) {
		type field struct {
			v uint64
			n uint
		}
		var fields []field
		w := NewWriter(nil)
		for i := 0; i+9 <= len(in); i += 9 {
			n := uint(in[i])%64 + 1
			v := binary.LittleEndian.Uint64(in[i+1:])
			if n < 64 {
				v &= 1<<n - 1
			}
			fields = append(fields, field{v, n})
			w.WriteBits(v, n)
		}
		r := NewReader(w.Bytes())
		for i, f := range fields {
			if got := r.ReadBits(f.n); got != f.v {
				t.Fatalf("field %d: got %x, want %x", i, got, f.v)
			}
		}
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		if r.Remaining() >= 8 {
			t.Fatalf("%d bits left, want < 8", r.Remaining())
		}
		raw := NewReader(in)
		for _, f := range fields {
			raw.ReadInt(f.n)
		}
		raw.ReadBits(64)
	})
}

func BenchmarkWriteRead(b *testing.B) {
	widths := []uint{1, 3, 8, 13, 16, 32, 7, 64}
	buf := make([]byte, 0, 64)
	b.Run("bits", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w := NewWriter(buf[:0])
			for i, n := range widths {
				w.WriteBits(uint64(i*0x9E3779B9), n)
			}
			r := NewReader(w.Bytes())
			for _, n := range widths {
				r.ReadBits(n)
			}
		}
	})
	// Baseline: the same fields byte-aligned with encoding/binary.
	b.Run("binary-aligned", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p := buf[:0]
			for i := range widths {
				p = binary.LittleEndian.AppendUint64(p, uint64(i*0x9E3779B9))
			}
			var s uint64
			for i := range widths {
				s += binary.LittleEndian.Uint64(p[8*i:])
			}
			_ = s
		}
	})
}

func TestMarkRollback(t *testing.T) {
	w := NewWriter(nil)
	w.WriteBits(0b101, 3)
	m := w.Mark()
	w.WriteBits(0x1FFFF, 17)
	w.WriteString("junk")
	w.Rollback(m)
	w.WriteBits(0b11, 2)
	want := NewWriter(nil)
	want.WriteBits(0b101, 3)
	want.WriteBits(0b11, 2)
	if string(w.Bytes()) != string(want.Bytes()) || w.Bits() != 5 {
		t.Fatalf("after rollback got %08b (%d bits), want %08b (5 bits)", w.Bytes(), w.Bits(), want.Bytes())
	}
}
