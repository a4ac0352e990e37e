// Package bits is a bit-level writer and reader: fixed widths from 1 to 64
// bits, least significant bit first, packed with no padding between fields.
//
// Layout: bit i of the stream is bit (i mod 8) of byte i/8, so a field's low
// bits come first and a reader on any platform sees the same values. Floats
// are IEEE-754 bit patterns (f32 in 32 bits, f64 in 64), bools one bit.
//
// The [Writer] appends to a byte slice the caller owns and never allocates
// once that slice has room. The [Reader] is a consuming reader with a sticky
// failure: a read past the end returns zero, marks the reader failed, and
// every later read fails too, so one message decodes as one chain of reads
// with one check at the end ([Reader.Err]). Nothing here panics on input.
package bits

import (
	"encoding/binary"
	"errors"
	"math"
)

// ErrShort is the error of a read past the end of the input.
var ErrShort = errors.New("bits: read past the end of the input")

// ErrWidth is the error of a read whose width is outside 1..64.
var ErrWidth = errors.New("bits: width outside 1..64")

// Writer appends bits to a byte slice. The zero value writes to a nil slice.
type Writer struct {
	buf  []byte
	used uint // bits used in the last byte of buf, 0 when it is full
	n    int  // bits written by this writer
}

// NewWriter returns a writer appending to b, starting on a fresh byte after
// b's current contents. Pass b[:0] of a reused buffer to avoid allocating.
func NewWriter(b []byte) Writer { return Writer{buf: b} }

// Reset makes w write from the start of b again.
func (w *Writer) Reset(b []byte) { *w = Writer{buf: b} }

// Bytes returns the written bytes (the last one padded with zero bits).
func (w *Writer) Bytes() []byte { return w.buf }

// Bits returns how many bits w has written.
func (w *Writer) Bits() int { return w.n }

// WriteBits writes the low n bits of v, n in 1..64. A width outside that
// range is a programming error (widths come from the registry, never the
// peer) and panics.
func (w *Writer) WriteBits(v uint64, n uint) {
	if n == 0 || n > 64 {
		panic("bits: WriteBits width outside 1..64")
	}
	if n < 64 {
		v &= 1<<n - 1
	}
	w.n += int(n)
	if w.used != 0 {
		take := min(8-w.used, n)
		w.buf[len(w.buf)-1] |= byte(v << w.used)
		v >>= take
		n -= take
		w.used = (w.used + take) & 7
	}
	for ; n >= 8; n -= 8 {
		w.buf = append(w.buf, byte(v))
		v >>= 8
	}
	if n > 0 {
		w.buf = append(w.buf, byte(v))
		w.used = n
	}
}

// Mark is a writer position to roll back to.
type Mark struct {
	len  int
	used uint
	n    int
	last byte
}

// Mark returns the current position.
func (w *Writer) Mark() Mark {
	m := Mark{len: len(w.buf), used: w.used, n: w.n}
	if m.len > 0 {
		m.last = w.buf[m.len-1]
	}
	return m
}

// Rollback forgets everything written since m.
func (w *Writer) Rollback(m Mark) {
	w.buf = w.buf[:m.len]
	if m.len > 0 {
		w.buf[m.len-1] = m.last
	}
	w.used, w.n = m.used, m.n
}

// WriteInt writes v as an n-bit two's-complement integer.
func (w *Writer) WriteInt(v int64, n uint) { w.WriteBits(uint64(v), n) }

// WriteBool writes one bit: 1 for true.
func (w *Writer) WriteBool(v bool) {
	var b uint64
	if v {
		b = 1
	}
	w.WriteBits(b, 1)
}

// WriteF32 writes the IEEE-754 single bit pattern of v.
func (w *Writer) WriteF32(v float32) { w.WriteBits(uint64(math.Float32bits(v)), 32) }

// WriteF64 writes the IEEE-754 double bit pattern of v.
func (w *Writer) WriteF64(v float64) { w.WriteBits(math.Float64bits(v), 64) }

// WriteBytes writes each byte of p as 8 bits.
func (w *Writer) WriteBytes(p []byte) {
	if w.used == 0 {
		w.buf = append(w.buf, p...)
		w.n += 8 * len(p)
		return
	}
	for _, c := range p {
		w.WriteBits(uint64(c), 8)
	}
}

// WriteString writes each byte of s as 8 bits.
func (w *Writer) WriteString(s string) {
	if w.used == 0 {
		w.buf = append(w.buf, s...)
		w.n += 8 * len(s)
		return
	}
	for i := 0; i < len(s); i++ {
		w.WriteBits(uint64(s[i]), 8)
	}
}

// Reader reads bits from a byte slice. See the package comment for the
// failure contract.
type Reader struct {
	buf []byte
	pos int // next bit
	err error
}

// NewReader returns a reader of b.
func NewReader(b []byte) Reader { return Reader{buf: b} }

// Err returns nil while every read has succeeded, else the first failure.
func (r *Reader) Err() error { return r.err }

// Fail marks the reader failed with err (when it has not failed already), so
// a decoder that finds a bad value stops the chain the same way a short
// read does.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Remaining returns the number of unread bits (0 once failed).
func (r *Reader) Remaining() int {
	if r.err != nil {
		return 0
	}
	return 8*len(r.buf) - r.pos
}

// Pos returns the number of bits read so far.
func (r *Reader) Pos() int { return r.pos }

// ReadBits reads an n-bit unsigned value, n in 1..64.
func (r *Reader) ReadBits(n uint) uint64 {
	if r.err != nil {
		return 0
	}
	if n == 0 || n > 64 {
		r.err = ErrWidth
		return 0
	}
	if int(n) > 8*len(r.buf)-r.pos {
		r.err = ErrShort
		return 0
	}
	if i, off := r.pos>>3, uint(r.pos&7); off+n <= 64 && i+8 <= len(r.buf) {
		v := binary.LittleEndian.Uint64(r.buf[i:]) >> off
		if n < 64 {
			v &= 1<<n - 1
		}
		r.pos += int(n)
		return v
	}
	var v uint64
	var got uint
	for got < n {
		off := uint(r.pos & 7)
		take := min(8-off, n-got)
		b := uint64(r.buf[r.pos>>3]>>off) & (1<<take - 1)
		v |= b << got
		got += take
		r.pos += int(take)
	}
	return v
}

// ReadInt reads an n-bit two's-complement integer, sign-extended.
func (r *Reader) ReadInt(n uint) int64 {
	v := r.ReadBits(n)
	if n == 0 || n > 64 || r.err != nil {
		return 0
	}
	shift := 64 - n
	return int64(v<<shift) >> shift
}

// ReadBool reads one bit.
func (r *Reader) ReadBool() bool { return r.ReadBits(1) == 1 }

// ReadF32 reads an IEEE-754 single.
func (r *Reader) ReadF32() float32 { return math.Float32frombits(uint32(r.ReadBits(32))) }

// ReadF64 reads an IEEE-754 double.
func (r *Reader) ReadF64() float64 { return math.Float64frombits(r.ReadBits(64)) }

// ReadBytes fills p with the next len(p) bytes. On failure p is zeroed
// as far as it was not filled and the reader is failed.
func (r *Reader) ReadBytes(p []byte) bool {
	if r.err != nil {
		clear(p)
		return false
	}
	if 8*len(p) > 8*len(r.buf)-r.pos {
		r.err = ErrShort
		clear(p)
		return false
	}
	if r.pos&7 == 0 {
		copy(p, r.buf[r.pos>>3:])
		r.pos += 8 * len(p)
		return true
	}
	for i := range p {
		p[i] = byte(r.ReadBits(8))
	}
	return true
}

// ReadByte reads 8 bits. It returns an error (io.ByteReader's shape) when
// the reader has failed.
func (r *Reader) ReadByte() (byte, error) {
	b := byte(r.ReadBits(8))
	return b, r.err
}
