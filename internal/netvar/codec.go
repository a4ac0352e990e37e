package netvar

import (
	"fmt"
	"math"

	"dlmp/internal/bits"
)

// Codec is a var's wire shape, carried in the manifest in CodecBits bits.
type Codec uint8

// The codecs. The numbering is a wire contract (the manifest carries it):
// append, never renumber.
const (
	CodecAuto Codec = iota
	CodecBool
	CodecBit
	CodecNibble
	CodecUNibble
	CodecByte
	CodecUByte
	CodecShort
	CodecUShort
	CodecInt
	CodecUInt
	CodecInteger
	CodecUInteger
	CodecFloat
	CodecDouble
	CodecString
	CodecBoundedString
	CodecVector
	CodecNormal
	CodecAngle
	CodecColor
	CodecEntity
	CodecPlayer
	CodecTable
	CodecData
	CodecCustom
	numCodecs
)

// Fixed widths: every width in this package is one of these constants, an
// argument carried in the manifest, or written on the wire beside its value.
const (
	CodecBits       = 5  // a codec number in the manifest
	CodecArgBits    = 16 // a codec argument in the manifest, and the prefix of a bounded string
	KindBits        = 2  // an entity kind
	EntityIDBits    = 16 // an entity id
	PlayerBits      = 10 // a player id: 1000 player slots
	UserIDBits      = 16 // the player identity in a group header: UserID mod 2^16
	AutoTagBits     = 4  // the type tag of an Auto value
	TableCountBits  = 16 // the pair count of a Table
	DataLenBits     = 16 // the byte count of Data inside an Auto value
	VectorIntBits   = 16 // a Vector/Angle component sent as a compact integer
	NormalBits      = 16 // a Normal component, fixed point over ±1
	MaxTableDepth   = 8  // nesting a decoder accepts
	MaxPlayers      = 1 << PlayerBits
	MaxBoundedLen   = 1<<CodecArgBits - 1
	normalScale     = 1<<(NormalBits-1) - 1
	vectorIntMax    = 1<<(VectorIntBits-1) - 1
	vectorIntMin    = -(1 << (VectorIntBits - 1))
	maxIntegerWidth = 32
)

var codecNames = [numCodecs]string{
	"Auto", "Bool", "Bit", "Nibble", "UNibble", "Byte", "UByte", "Short", "UShort",
	"Int", "UInt", "Integer", "UInteger", "Float", "Double", "String", "String",
	"Vector", "Normal", "Angle", "Color", "Entity", "Player", "Table", "Data", "Custom",
}

func (c Codec) String() string {
	if c < numCodecs {
		return codecNames[c]
	}
	return fmt.Sprintf("Codec(%d)", uint8(c))
}

// codecSpec is everything needed to read and write one var's value.
type codecSpec struct {
	codec Codec
	arg   uint32 // Integer width, bounded length, Data length, Custom worst-case bits
	write func(w *bits.Writer, v any)
	read  func(r *bits.Reader) any
	enum  []any // the legal values, when the var is an Enum
	// mapped is set for an Enum sent as an index (Custom under the hood).
	mapped bool
}

// intWidth returns the width and signedness of an integer codec.
func (c codecSpec) intWidth() (uint, bool, bool) {
	switch c.codec {
	case CodecNibble:
		return 4, true, true
	case CodecUNibble:
		return 4, false, true
	case CodecByte:
		return 8, true, true
	case CodecUByte:
		return 8, false, true
	case CodecShort:
		return 16, true, true
	case CodecUShort:
		return 16, false, true
	case CodecInt:
		return 32, true, true
	case CodecUInt:
		return 32, false, true
	case CodecInteger:
		return uint(c.arg), true, true
	case CodecUInteger:
		return uint(c.arg), false, true
	}
	return 0, false, false
}

// bounded reports whether the registration, not the sender, decides how
// much a read of this codec consumes (the ClientOwned rule).
func (c codecSpec) bounded() bool {
	switch c.codec {
	case CodecAuto, CodecString, CodecTable:
		return false
	case CodecCustom:
		return c.mapped
	}
	return true
}

// batchable reports whether the var may share a message with others.
func (c codecSpec) batchable() bool { return c.codec != CodecCustom }

// maxBits returns the worst-case encoded size of a value, or -1 when the
// sender decides it (capped only by the message limit).
func (c codecSpec) maxBits() int {
	if n, _, ok := c.intWidth(); ok {
		return int(n)
	}
	switch c.codec {
	case CodecBool, CodecBit:
		return 1
	case CodecFloat:
		return 32
	case CodecDouble:
		return 64
	case CodecBoundedString:
		return CodecArgBits + 8*int(c.arg)
	case CodecVector, CodecAngle:
		return 3 * (1 + 32)
	case CodecNormal:
		return 3 * NormalBits
	case CodecColor:
		return 3*8 + 1 + 8
	case CodecEntity:
		return KindBits + EntityIDBits
	case CodecPlayer:
		return PlayerBits
	case CodecData:
		return 8 * int(c.arg)
	case CodecCustom:
		if c.arg == 0 {
			return -1
		}
		return int(c.arg)
	}
	return -1
}

// encode writes v, which check has accepted (nil is handled by the entry).
func (c codecSpec) encode(w *bits.Writer, v any) {
	if c.write != nil {
		// A custom function may keep the writer: hand it a heap copy so
		// only this path allocates and w stays on the caller's stack.
		tmp := new(bits.Writer)
		*tmp = *w
		c.write(tmp, v)
		*w = *tmp
		return
	}
	if n, _, ok := c.intWidth(); ok {
		w.WriteInt(int64(v.(float64)), n)
		return
	}
	switch c.codec {
	case CodecAuto, CodecTable:
		writeAuto(w, v, c.codec == CodecTable)
	case CodecBool:
		w.WriteBool(v.(bool))
	case CodecBit:
		w.WriteBool(v.(float64) == 1)
	case CodecFloat:
		w.WriteF32(float32(v.(float64)))
	case CodecDouble:
		w.WriteF64(v.(float64))
	case CodecString:
		writeCString(w, v.(string))
	case CodecBoundedString:
		s := v.(string)
		if len(s) > int(c.arg) {
			s = s[:c.arg]
		}
		w.WriteBits(uint64(len(s)), CodecArgBits)
		w.WriteString(s)
	case CodecData:
		p := v.([]byte)
		for i := 0; i < int(c.arg); i++ {
			var b byte
			if i < len(p) {
				b = p[i]
			}
			w.WriteBits(uint64(b), 8)
		}
	case CodecVector:
		x := v.(Vector)
		writeComponent(w, x.X)
		writeComponent(w, x.Y)
		writeComponent(w, x.Z)
	case CodecAngle:
		x := v.(Angle)
		writeComponent(w, x.P)
		writeComponent(w, x.Y)
		writeComponent(w, x.R)
	case CodecNormal:
		x := v.(Vector)
		for _, f := range [3]float32{x.X, x.Y, x.Z} {
			w.WriteInt(int64(math.Round(float64(max(-1, min(1, f)))*normalScale)), NormalBits)
		}
	case CodecColor:
		writeColor(w, v.(Color))
	case CodecEntity:
		x := v.(Ref)
		w.WriteBits(uint64(x.Kind), KindBits)
		w.WriteBits(uint64(x.ID), EntityIDBits)
	case CodecPlayer:
		w.WriteBits(uint64(v.(Ref).ID), PlayerBits)
	}
}

// decode reads a value; on a malformed value it fails r and returns nil.
func (c codecSpec) decode(r *bits.Reader) any {
	if c.read != nil {
		tmp := new(bits.Reader)
		*tmp = *r
		v := c.read(tmp)
		*r = *tmp
		return v
	}
	if n, signed, ok := c.intWidth(); ok {
		if signed {
			return float64(r.ReadInt(n))
		}
		return float64(r.ReadBits(n))
	}
	switch c.codec {
	case CodecAuto:
		return readAuto(r, 0)
	case CodecTable:
		return readTable(r, 0)
	case CodecBool:
		return r.ReadBool()
	case CodecBit:
		return float64(r.ReadBits(1))
	case CodecFloat:
		return float64(r.ReadF32())
	case CodecDouble:
		return r.ReadF64()
	case CodecString:
		return readCString(r)
	case CodecBoundedString:
		n := int(r.ReadBits(CodecArgBits))
		if n > int(c.arg) {
			// The prefix lies: read no more than the registration allows
			// and abandon the message, whose bits are now desynced.
			r.Fail(&PrefixError{Len: n, Max: int(c.arg)})
			return nil
		}
		p := make([]byte, n)
		r.ReadBytes(p)
		return string(p)
	case CodecData:
		p := make([]byte, c.arg)
		r.ReadBytes(p)
		return p
	case CodecVector:
		return Vector{readComponent(r), readComponent(r), readComponent(r)}
	case CodecAngle:
		return Angle{readComponent(r), readComponent(r), readComponent(r)}
	case CodecNormal:
		var q [3]float32
		for i := range q {
			q[i] = float32(max(-normalScale, r.ReadInt(NormalBits))) / normalScale
		}
		return Vector{q[0], q[1], q[2]}
	case CodecColor:
		return readColor(r)
	case CodecEntity:
		k := Kind(r.ReadBits(KindBits))
		return Ref{k, uint16(r.ReadBits(EntityIDBits))}
	case CodecPlayer:
		return Ref{KindPlayer, uint16(r.ReadBits(PlayerBits))}
	}
	r.Fail(fmt.Errorf("codec %s has no reader", c.codec))
	return nil
}

// PrefixError is a bounded string whose decoded length prefix exceeds the
// registered maximum: the rest of the message is abandoned.
type PrefixError struct{ Len, Max int }

func (e *PrefixError) Error() string {
	return fmt.Sprintf("bounded string prefix %d exceeds maxLen %d: message abandoned", e.Len, e.Max)
}

// writeComponent writes one Vector/Angle component: a 1 bit, then a
// VectorIntBits signed integer when the component is one that fits; else a
// 0 bit and the f32.
func writeComponent(w *bits.Writer, f float32) {
	if t := math.Trunc(float64(f)); t == float64(f) && t >= vectorIntMin && t <= vectorIntMax && !(f == 0 && math.Signbit(float64(f))) {
		w.WriteBool(true)
		w.WriteInt(int64(t), VectorIntBits)
		return
	}
	w.WriteBool(false)
	w.WriteF32(f)
}

func readComponent(r *bits.Reader) float32 {
	if r.ReadBool() {
		return float32(r.ReadInt(VectorIntBits))
	}
	return r.ReadF32()
}

// writeColor writes R, G, B, then a bit saying whether an alpha byte follows
// (only when alpha is not 255).
func writeColor(w *bits.Writer, c Color) {
	w.WriteBits(uint64(c.R), 8)
	w.WriteBits(uint64(c.G), 8)
	w.WriteBits(uint64(c.B), 8)
	w.WriteBool(c.A != 255)
	if c.A != 255 {
		w.WriteBits(uint64(c.A), 8)
	}
}

func readColor(r *bits.Reader) Color {
	c := Color{uint8(r.ReadBits(8)), uint8(r.ReadBits(8)), uint8(r.ReadBits(8)), 255}
	if r.ReadBool() {
		c.A = uint8(r.ReadBits(8))
	}
	return c
}

// writeCString writes s and a NUL byte. check has cut s at any NUL.
func writeCString(w *bits.Writer, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			s = s[:i]
			break
		}
	}
	w.WriteString(s)
	w.WriteBits(0, 8)
}

// readCString reads bytes up to a NUL; running out first fails r.
func readCString(r *bits.Reader) any {
	save := *r
	n := 0
	for {
		b, err := r.ReadByte()
		if err != nil {
			return nil
		}
		if b == 0 {
			break
		}
		n++
	}
	p := make([]byte, n)
	save.ReadBytes(p)
	return string(p)
}
