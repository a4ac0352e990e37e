package netvar

import (
	"errors"
	"fmt"

	"dlmp/internal/bits"
)

// entryStateBits is the worst-case state prefix of an entry: a present bit,
// and when it is 0 an is-default bit.
const entryStateBits = 2

// Entry decoding errors. Each abandons the rest of the message: the bits
// after a bad entry cannot be trusted.
var (
	ErrUnknownVar = errors.New("netvar: unknown var id")
	ErrNoReader   = errors.New("netvar: custom-coded var has no Read on this side")
	ErrBadValue   = errors.New("netvar: malformed value")
)

// Target is the owner a group of entries applies to: an entity (a player
// also carrying its identity, UserID mod 2^16) or the zero Ref for Globals.
type Target struct {
	Ref    Ref
	UserID uint16 // players only
}

func writeTarget(w *bits.Writer, t Target) {
	w.WriteBits(uint64(t.Ref.Kind), KindBits)
	if t.Ref.Kind == KindNone {
		return
	}
	w.WriteBits(uint64(t.Ref.ID), EntityIDBits)
	if t.Ref.Kind == KindPlayer {
		w.WriteBits(uint64(t.UserID), UserIDBits)
	}
}

func readTarget(r *bits.Reader) Target {
	var t Target
	t.Ref.Kind = Kind(r.ReadBits(KindBits))
	if t.Ref.Kind == KindNone {
		return t
	}
	t.Ref.ID = uint16(r.ReadBits(EntityIDBits))
	if t.Ref.Kind == KindPlayer {
		t.UserID = uint16(r.ReadBits(UserIDBits))
	}
	return t
}

// WriteVarEntry writes one var entry: the id, then a present bit; a present
// value follows in the var's codec, an absent one is an is-default bit
// (1: the var's default, 0: nil). A value equal to the default is sent as
// the default, so it costs no value bits. value must have passed the var's
// check. Both sides use this function and DecodeEntry, and only them.
func WriteVarEntry(w *bits.Writer, s *Schema, v *Var, value any) {
	w.WriteBits(uint64(v.id), s.idBits)
	switch {
	case value == nil:
		w.WriteBits(0, 2) // absent, not default: nil
	case v.hasDef && Equal(value, v.def):
		w.WriteBits(0b10, 2) // absent (bit 0 = 0), default (bit 1 = 1)
	default:
		w.WriteBool(true)
		v.spec.encode(w, value)
	}
}

// DecodeEntry reads one var entry. On an error the entry is dropped and the
// caller abandons the rest of the message.
func DecodeEntry(r *bits.Reader, s *Schema) (*Var, any, error) {
	id := int(r.ReadBits(s.idBits))
	if r.Err() != nil {
		return nil, nil, r.Err()
	}
	v, ok := s.Var(id)
	if !ok {
		return nil, nil, fmt.Errorf("%w: %d of %d", ErrUnknownVar, id, s.Len())
	}
	if !r.ReadBool() {
		isDef := r.ReadBool()
		if r.Err() != nil {
			return nil, nil, r.Err()
		}
		if isDef && v.hasDef {
			return v, v.def, nil
		}
		return v, nil, nil
	}
	if v.spec.codec == CodecCustom && v.spec.read == nil {
		return nil, nil, fmt.Errorf("%w: %s", ErrNoReader, v.name)
	}
	val := v.spec.decode(r)
	if err := r.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrBadValue, v.name, err)
	}
	if val == nil {
		return nil, nil, fmt.Errorf("%w: %s: custom Read returned nil", ErrBadValue, v.name)
	}
	return v, val, nil
}

// AppendUpdate appends an Update payload: one live change of one var.
//
//	target | entry
func AppendUpdate(b []byte, s *Schema, t Target, v *Var, value any) []byte {
	w := bits.NewWriter(b)
	writeTarget(&w, t)
	WriteVarEntry(&w, s, v, value)
	return w.Bytes()
}

// DecodeUpdate reads an Update payload.
func DecodeUpdate(b []byte, s *Schema) (Target, *Var, any, error) {
	r := bits.NewReader(b)
	t := readTarget(&r)
	v, val, err := DecodeEntry(&r, s)
	if err != nil {
		return t, nil, nil, err
	}
	return t, v, val, trailing(&r)
}

// trailing checks only zero padding is left.
func trailing(r *bits.Reader) error {
	if n := r.Remaining(); n >= 8 {
		return fmt.Errorf("netvar: %d trailing bits", n)
	}
	if n := r.Remaining(); n > 0 && r.ReadBits(uint(n)) != 0 {
		return fmt.Errorf("netvar: non-zero padding")
	}
	return nil
}

// AppendClientSet appends a ClientSet payload: a bare entry, no target.
func AppendClientSet(b []byte, s *Schema, v *Var, value any) []byte {
	w := bits.NewWriter(b)
	WriteVarEntry(&w, s, v, value)
	return w.Bytes()
}

// DecodeClientSet reads a ClientSet payload.
func DecodeClientSet(b []byte, s *Schema) (*Var, any, error) {
	r := bits.NewReader(b)
	v, val, err := DecodeEntry(&r, s)
	if err != nil {
		return nil, nil, err
	}
	return v, val, trailing(&r)
}
