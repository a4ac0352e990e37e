package packetjson

import (
	"fmt"

	"dlmp/internal/wire"
)

// kinds is a test fixture holding one field of every kind the mapping
// supports, so the mapping is exercised before the wire packets that use
// those kinds land. It is only mapped to JSON, never put on the wire: Append,
// Parse and the checks are not part of what these tests measure.
type kinds struct {
	header
	Active       uint8        `json:"active"`
	Flag         bool         `json:"flag"`
	U8           uint8        `json:"u8"`
	U16          uint16       `json:"u16"`
	U32          uint32       `json:"u32"`
	U64          uint64       `json:"u64"`
	I8           int8         `json:"i8"`
	I16          int16        `json:"i16"`
	I32          int32        `json:"i32"`
	I64          int64        `json:"i64"`
	F32          float32      `json:"f32"`
	F64          float64      `json:"f64"`
	Text         [16]byte     `json:"text"`
	PayloadLen   uint16       `json:"payload_len"`
	Payload      []byte       `json:"payload"`
	Label        string       `json:"label"`
	Triple       [3]float32   `json:"triple"`
	EntriesCount uint8        `json:"entries_count"`
	Entries      []kindsEntry `json:"entries"`
	Chat         line         `json:"chat"`
	NoTag        uint8
	Skipped      uint32 `json:"-"`
	hidden       uint32
}

// header is embedded without a tag: its fields are flattened.
type header struct {
	EventID uint32 `json:"event_id"`
}

type kindsEntry struct {
	X float32 `json:"x"`
	N uint16  `json:"n"`
}

// line is a text type with a length and a buffer, mapped through its
// MarshalText and UnmarshalText methods.
type line struct {
	N   uint8    `json:"len"`
	Buf [32]byte `json:"-"`
}

func (l line) MarshalText() ([]byte, error) { return l.Buf[:min(int(l.N), len(l.Buf))], nil }

func (l *line) UnmarshalText(b []byte) error {
	if len(b) > len(l.Buf) {
		return fmt.Errorf("line is %d bytes, at most %d fit", len(b), len(l.Buf))
	}
	*l = line{N: uint8(len(b))}
	copy(l.Buf[:], b)
	return nil
}

func (*kinds) ID() byte                    { return 0xFF }
func (*kinds) Name() string                { return "Kinds" }
func (*kinds) Dir() wire.Direction         { return wire.ServerToClient }
func (*kinds) Len() int                    { return 0 }
func (*kinds) Append(b []byte) []byte      { return b }
func (*kinds) Parse(b []byte) (int, error) { return 0, nil }
func (*kinds) CheckSend() error            { return nil }
func (*kinds) CheckRecv() error            { return nil }
