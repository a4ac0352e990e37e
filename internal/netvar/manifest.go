package netvar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"

	"dlmp/internal/bits"
)

// ManifestVersion is the first byte of a manifest.
const ManifestVersion = 1

const (
	idBitsBits        = 5  // the id width in the manifest header
	manifestCountBits = 17 // the var count: 0..65536
)

// ManifestEntry is one var as the manifest describes it.
type ManifestEntry struct {
	Name        string
	Scope       Scope
	Codec       Codec
	Arg         uint32
	ClientOwned bool
	Default     any // nil when there is none
}

// Manifest is a decoded manifest: entry i describes var id i.
type Manifest struct {
	IDBits  uint
	Entries []ManifestEntry
	Hash    uint32
}

// encodeManifest writes the manifest of s and returns it with its hash.
func encodeManifest(s *Schema) ([]byte, uint32) {
	w := bits.NewWriter([]byte{ManifestVersion})
	w.WriteBits(uint64(s.idBits), idBitsBits)
	w.WriteBits(uint64(len(s.vars)), manifestCountBits)
	for _, v := range s.vars {
		writeCString(&w, v.name)
		w.WriteBits(uint64(v.scope), ScopeBits)
		w.WriteBits(uint64(v.spec.codec), CodecBits)
		w.WriteBits(uint64(v.spec.arg), CodecArgBits)
		w.WriteBool(v.clientOwned)
		_, _, reject := checkAuto(v.def)
		hasDef := v.hasDef && reject == nil
		w.WriteBool(hasDef)
		if hasDef {
			writeAuto(&w, v.def, false)
		}
	}
	b := w.Bytes()
	h := manifestHash(b)
	return binary.LittleEndian.AppendUint32(b, h), h
}

func manifestHash(b []byte) uint32 {
	f := fnv.New32a()
	f.Write(b)
	return f.Sum32()
}

// ErrManifest is wrapped by every manifest decoding error.
var ErrManifest = errors.New("netvar: bad manifest")

// DecodeManifest reads a manifest from the front of b and returns it and
// the bytes it used (a Sync message continues with the bootstrap).
func DecodeManifest(b []byte) (Manifest, int, error) {
	bad := func(field, rule string, args ...any) (Manifest, int, error) {
		return Manifest{}, 0, fmt.Errorf("%w: %s: %s", ErrManifest, field, fmt.Sprintf(rule, args...))
	}
	if len(b) < 1+4 {
		return bad("length", "%d bytes, want at least 5", len(b))
	}
	if b[0] != ManifestVersion {
		return bad("version", "%d, want %d", b[0], ManifestVersion)
	}
	r := bits.NewReader(b[1:])
	m := Manifest{IDBits: uint(r.ReadBits(idBitsBits))}
	n := int(r.ReadBits(manifestCountBits))
	if r.Err() != nil {
		return bad("header", "%v", r.Err())
	}
	if m.IDBits < 1 || m.IDBits > 16 {
		return bad("id_bits", "%d outside 1..16", m.IDBits)
	}
	if n > 1<<m.IDBits {
		return bad("count", "%d vars do not fit %d-bit ids", n, m.IDBits)
	}
	// Every entry costs at least a name byte, a NUL and 26 bits (42 > 39):
	// bound the slice before allocating it.
	if n*39 > r.Remaining() {
		return bad("count", "%d vars cannot fit in %d bits", n, r.Remaining())
	}
	m.Entries = make([]ManifestEntry, n)
	for i := range m.Entries {
		e := &m.Entries[i]
		name, _ := readCString(&r).(string)
		e.Name = name
		e.Scope = Scope(r.ReadBits(ScopeBits))
		e.Codec = Codec(r.ReadBits(CodecBits))
		e.Arg = uint32(r.ReadBits(CodecArgBits))
		e.ClientOwned = r.ReadBool()
		if r.ReadBool() {
			e.Default = readAuto(&r, 0)
		}
		if err := r.Err(); err != nil {
			return bad(fmt.Sprintf("entry %d", i), "%v", err)
		}
		switch {
		case e.Name == "":
			return bad(fmt.Sprintf("entry %d name", i), "empty")
		case i > 0 && e.Name <= m.Entries[i-1].Name:
			return bad(fmt.Sprintf("entry %d name", i), "%q not after %q: ids follow sorted names", e.Name, m.Entries[i-1].Name)
		case e.Scope >= numScopes:
			return bad(fmt.Sprintf("entry %d scope", i), "%d unknown", e.Scope)
		case e.Codec >= numCodecs:
			return bad(fmt.Sprintf("entry %d codec", i), "%d unknown", e.Codec)
		case (e.Codec == CodecInteger || e.Codec == CodecUInteger) && (e.Arg < 1 || e.Arg > maxIntegerWidth):
			return bad(fmt.Sprintf("entry %d arg", i), "Integer width %d outside 1..%d", e.Arg, maxIntegerWidth)
		case (e.Codec == CodecBoundedString || e.Codec == CodecData) && e.Arg < 1:
			return bad(fmt.Sprintf("entry %d arg", i), "%s length 0", e.Codec)
		}
	}
	end := 1 + (r.Pos()+7)/8
	if len(b) < end+4 {
		return bad("hash", "missing")
	}
	m.Hash = binary.LittleEndian.Uint32(b[end:])
	if got := manifestHash(b[:end]); got != m.Hash {
		return bad("hash", "%08x, computed %08x", m.Hash, got)
	}
	return m, end + 4, nil
}

// Bind builds the client's schema from a manifest: each entry matched by
// name to the local registration; an entry the client does not know, or
// knows with another codec, gets a synthetic var built from the manifest
// (logged once per name). The manifest's scope, codec, default and
// ClientOwned flag win: the server decides them.
func (r *Registry) Bind(m Manifest) *Schema {
	s := &Schema{idBits: m.IDBits, byName: make(map[string]*Var, len(m.Entries)), hash: m.Hash}
	for i, e := range m.Entries {
		var v *Var
		local, ok := r.vars[e.Name]
		switch {
		case ok && local.broken == nil && local.spec.codec == e.Codec && (local.spec.arg == e.Arg || e.Codec == CodecCustom):
			c := *local
			v = &c
		case ok && local.broken == nil:
			r.log.Error("netvar: manifest codec differs from the local registration: using the manifest's",
				"var", e.Name, "local", local.spec.codec, "local_arg", local.spec.arg, "manifest", e.Codec, "manifest_arg", e.Arg)
			v = r.synthetic(e)
		default:
			if !r.logged[e.Name] {
				r.logged[e.Name] = true
				r.log.Warn("netvar: manifest var not registered locally: using a synthetic entry", "var", e.Name, "codec", e.Codec)
			}
			v = r.synthetic(e)
		}
		v.id = i
		v.scope = e.Scope
		v.clientOwned = e.ClientOwned
		if e.Default != nil {
			v.def, v.hasDef = e.Default, true
		}
		v.maxBits = updateMaxBits(s.idBits, v)
		s.vars = append(s.vars, v)
		s.byName[e.Name] = v
	}
	return s
}

func (r *Registry) synthetic(e ManifestEntry) *Var {
	return &Var{reg: r, name: e.Name, synthetic: true, spec: codecSpec{codec: e.Codec, arg: e.Arg}}
}
