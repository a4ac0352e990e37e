package wire

import (
	"encoding/binary"
	"math"
)

// cursor reads fields from the front of a slice whose length was checked
// before (see head); each read consumes what it returns.
type cursor []byte

func (c *cursor) u8() uint8 { v := (*c)[0]; *c = (*c)[1:]; return v }

func (c *cursor) u16() uint16 { v := binary.LittleEndian.Uint16(*c); *c = (*c)[2:]; return v }

func (c *cursor) u32() uint32 { v := binary.LittleEndian.Uint32(*c); *c = (*c)[4:]; return v }

func (c *cursor) u64() uint64 { v := binary.LittleEndian.Uint64(*c); *c = (*c)[8:]; return v }

func (c *cursor) i32() int32 { return int32(c.u32()) }

func (c *cursor) f32() float32 { return math.Float32frombits(c.u32()) }

// bytes copies len(dst) bytes into dst.
func (c *cursor) bytes(dst []byte) { n := copy(dst, *c); *c = (*c)[n:] }

func appendU16(b []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(b, v) }

func appendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

func appendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

func appendI32(b []byte, v int32) []byte { return appendU32(b, uint32(v)) }

func appendF32(b []byte, v float32) []byte { return appendU32(b, math.Float32bits(v)) }
