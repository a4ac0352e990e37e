package wire

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// BenchmarkPlayerSyncVsReflect sets the hand-written PlayerSync codec beside
// the reflective encoding/binary baseline STYLE.md rules out, on the same
// bytes (the struct's fields are in wire order).
func BenchmarkPlayerSyncVsReflect(b *testing.B) {
	p := validPlayerSync().(*PlayerSync)
	b.Run("codec", func(b *testing.B) {
		buf := make([]byte, 0, PlayerSyncLen)
		var q PlayerSync
		b.ReportAllocs()
		for b.Loop() {
			buf = p.Append(buf[:0])
			if _, err := q.Parse(buf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-binary", func(b *testing.B) {
		var w bytes.Buffer
		var q PlayerSync
		b.ReportAllocs()
		for b.Loop() {
			w.Reset()
			w.WriteByte(IDPlayerSync)
			if err := binary.Write(&w, binary.LittleEndian, p); err != nil {
				b.Fatal(err)
			}
			r := bytes.NewReader(w.Bytes()[1:])
			if err := binary.Read(r, binary.LittleEndian, &q); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestPlayerSyncReflectBaseline checks that the baseline encodes the same
// bytes, so the benchmark compares like with like.
func TestPlayerSyncReflectBaseline(t *testing.T) {
	p := validPlayerSync().(*PlayerSync)
	var w bytes.Buffer
	w.WriteByte(IDPlayerSync)
	if err := binary.Write(&w, binary.LittleEndian, p); err != nil {
		t.Fatal(err)
	}
	if got, want := w.Bytes(), p.Append(nil); !bytes.Equal(got, want) {
		t.Errorf("encoding/binary gives\n%x\nthe codec\n%x", got, want)
	}
}
