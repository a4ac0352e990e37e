package netvar

import (
	"fmt"
	"math"

	"dlmp/internal/bits"
)

// Auto type tags, AutoTagBits wide. A wire contract: append, never renumber.
const (
	tagBool   uint8 = iota // then 1 bit
	tagInt                 // then a 32-bit signed integer
	tagDouble              // then an f64
	tagString              // then NUL-terminated bytes
	tagVector              // then a Vector
	tagAngle               // then an Angle
	tagColor               // then a Color
	tagEntity              // then an Entity
	tagPlayer              // then a Player: Auto picks it for a player Ref
	tagTable               // then a Table body
	tagData                // then a DataLenBits count and the bytes
	numTags
)

// autoTag returns the tag Auto writes for a normalized value.
func autoTag(v any) uint8 {
	switch x := v.(type) {
	case bool:
		return tagBool
	case float64:
		if isInteger(x) && x >= math.MinInt32 && x <= math.MaxInt32 && !(x == 0 && math.Signbit(x)) {
			return tagInt
		}
		return tagDouble
	case string:
		return tagString
	case Vector:
		return tagVector
	case Angle:
		return tagAngle
	case Color:
		return tagColor
	case Ref:
		if x.Kind == KindPlayer && x.ID < MaxPlayers {
			return tagPlayer
		}
		return tagEntity
	case Table:
		return tagTable
	case []byte:
		return tagData
	}
	return numTags
}

// checkAuto validates a value for Auto or Table: strings are cut at a NUL
// (logged), byte strings and tables must fit their count fields.
func checkAuto(v any) (any, error, error) {
	switch x := v.(type) {
	case string:
		for i := 0; i < len(x); i++ {
			if x[i] == 0 {
				return x[:i], fmt.Errorf("string holds a NUL at byte %d of %d: truncated there", i, len(x)), nil
			}
		}
		return x, nil, nil
	case []byte:
		if len(x) > 1<<DataLenBits-1 {
			return nil, nil, fmt.Errorf("%d bytes exceed the %d an Auto value carries", len(x), 1<<DataLenBits-1)
		}
		return x, nil, nil
	case Table:
		if len(x) > 1<<TableCountBits-1 {
			return nil, nil, fmt.Errorf("table of %d pairs exceeds %d", len(x), 1<<TableCountBits-1)
		}
		var warn error
		out := make(Table, len(x))
		for k, e := range x {
			nk, w1, err := checkAuto(k)
			if err != nil {
				return nil, nil, err
			}
			ne, w2, err := checkAuto(e)
			if err != nil {
				return nil, nil, err
			}
			warn = firstErr(warn, w1, w2)
			out[nk] = ne
		}
		return out, warn, nil
	}
	if autoTag(v) == numTags {
		return nil, nil, fmt.Errorf("Auto does not take a %T", v)
	}
	return v, nil, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// writeAuto writes a tag and v; bare writes a Table's body with no tag.
func writeAuto(w *bits.Writer, v any, bare bool) {
	tag := autoTag(v)
	if !bare {
		w.WriteBits(uint64(tag), AutoTagBits)
	}
	switch x := v.(type) {
	case bool:
		w.WriteBool(x)
	case float64:
		if tag == tagInt {
			w.WriteInt(int64(x), 32)
		} else {
			w.WriteF64(x)
		}
	case string:
		writeCString(w, x)
	case Vector:
		writeComponent(w, x.X)
		writeComponent(w, x.Y)
		writeComponent(w, x.Z)
	case Angle:
		writeComponent(w, x.P)
		writeComponent(w, x.Y)
		writeComponent(w, x.R)
	case Color:
		writeColor(w, x)
	case Ref:
		if tag == tagPlayer {
			w.WriteBits(uint64(x.ID), PlayerBits)
		} else {
			w.WriteBits(uint64(x.Kind), KindBits)
			w.WriteBits(uint64(x.ID), EntityIDBits)
		}
	case Table:
		w.WriteBits(uint64(len(x)), TableCountBits)
		for _, k := range sortedKeys(x) {
			writeAuto(w, k, false)
			writeAuto(w, x[k], false)
		}
	case []byte:
		w.WriteBits(uint64(len(x)), DataLenBits)
		w.WriteBytes(x)
	}
}

// readAuto reads a tag and its value. depth bounds table nesting.
func readAuto(r *bits.Reader, depth int) any {
	tag := uint8(r.ReadBits(AutoTagBits))
	if r.Err() != nil {
		return nil
	}
	switch tag {
	case tagBool:
		return r.ReadBool()
	case tagInt:
		return float64(r.ReadInt(32))
	case tagDouble:
		return r.ReadF64()
	case tagString:
		return readCString(r)
	case tagVector:
		return Vector{readComponent(r), readComponent(r), readComponent(r)}
	case tagAngle:
		return Angle{readComponent(r), readComponent(r), readComponent(r)}
	case tagColor:
		return readColor(r)
	case tagEntity:
		k := Kind(r.ReadBits(KindBits))
		return Ref{k, uint16(r.ReadBits(EntityIDBits))}
	case tagPlayer:
		return Ref{KindPlayer, uint16(r.ReadBits(PlayerBits))}
	case tagTable:
		return readTable(r, depth+1)
	case tagData:
		n := int(r.ReadBits(DataLenBits))
		if n*8 > r.Remaining() {
			r.Fail(bits.ErrShort)
			return nil
		}
		p := make([]byte, n)
		r.ReadBytes(p)
		return p
	}
	r.Fail(fmt.Errorf("unknown Auto tag %d", tag))
	return nil
}

// readTable reads a Table body. A key that cannot be a key (a table, bytes,
// NaN) or a repeated key fails the read.
func readTable(r *bits.Reader, depth int) any {
	if depth > MaxTableDepth {
		r.Fail(fmt.Errorf("table nested deeper than %d", MaxTableDepth))
		return nil
	}
	n := int(r.ReadBits(TableCountBits))
	// Each pair costs at least two tags and two bits: bound the map.
	if n*(2*AutoTagBits+2) > r.Remaining() {
		r.Fail(bits.ErrShort)
		return nil
	}
	t := make(Table, n)
	for range n {
		k := readAuto(r, depth)
		v := readAuto(r, depth)
		if r.Err() != nil {
			return nil
		}
		switch x := k.(type) {
		case Table, []byte:
			r.Fail(fmt.Errorf("table key of type %T", k))
			return nil
		case float64:
			if math.IsNaN(x) {
				r.Fail(fmt.Errorf("table key NaN"))
				return nil
			}
		}
		if _, dup := t[k]; dup {
			r.Fail(fmt.Errorf("table key %v repeated", k))
			return nil
		}
		t[k] = v
	}
	return t
}
