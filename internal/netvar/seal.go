package netvar

import (
	mbits "math/bits"
	"slices"
)

// Schema is a sealed id → var table: the server's own after Seal, or a
// client's built from a received manifest by Bind. Entries are encoded and
// decoded against a schema, never against the registry directly.
type Schema struct {
	idBits uint
	vars   []*Var // by id
	byName map[string]*Var
	hash   uint32
}

// IDBits returns the width of a var id on the wire.
func (s *Schema) IDBits() uint { return s.idBits }

// Len returns the number of networked vars.
func (s *Schema) Len() int { return len(s.vars) }

// Var returns the var with the given id.
func (s *Schema) Var(id int) (*Var, bool) {
	if id < 0 || id >= len(s.vars) {
		return nil, false
	}
	return s.vars[id], true
}

// Lookup returns the networked var called name.
func (s *Schema) Lookup(name string) (*Var, bool) {
	v, ok := s.byName[name]
	return v, ok
}

// Hash returns the manifest hash the schema was built from.
func (s *Schema) Hash() uint32 { return s.hash }

// Vars returns the vars in id order. The slice must not be modified.
func (s *Schema) Vars() []*Var { return s.vars }

// Seal checks every registration, assigns ids by sorted name, computes the
// worst-case sizes and builds the manifest. Registration afterwards is a
// logged error. Sealing twice logs a warning and changes nothing.
// In dlmp, the server seals once the gamemode has loaded.
func (r *Registry) Seal() *Schema {
	if r.sealed {
		r.log.Warn("netvar: Seal called twice")
		return r.schema
	}
	r.sealed = true
	names := make([]string, 0, len(r.vars))
	for name, v := range r.vars {
		r.checkAtSeal(v)
		if v.broken == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) > 1<<16 {
		r.log.Error("netvar: more than 65536 vars: the rest are never networked", "vars", len(names))
		names = names[:1<<16]
	}
	s := &Schema{idBits: idBitsFor(len(names)), byName: make(map[string]*Var, len(names))}
	for i, name := range names {
		v := r.vars[name]
		v.id = i
		s.vars = append(s.vars, v)
		s.byName[name] = v
	}
	for _, v := range s.vars {
		v.maxBits = updateMaxBits(s.idBits, v)
	}
	r.manifest, s.hash = encodeManifest(s)
	r.schema = s
	return s
}

// Schema returns the sealed schema, nil before Seal.
func (r *Registry) Schema() *Schema { return r.schema }

// Manifest returns the encoded manifest, nil before Seal. It must not be
// modified.
func (r *Registry) Manifest() []byte { return r.manifest }

// idBitsFor is the width of an id among n vars: computed on the server
// only and carried in the manifest header.
func idBitsFor(n int) uint {
	if n <= 1 {
		return 1
	}
	return uint(mbits.Len(uint(n - 1)))
}

// checkAtSeal applies the seal-time checks: each error clears its flag,
// each warning leaves the registration as it is.
func (r *Registry) checkAtSeal(v *Var) {
	if v.broken != nil {
		return
	}
	l := r.log.With("var", v.name)
	if v.spec.codec == CodecCustom && !v.spec.mapped && (v.spec.write == nil || v.spec.read == nil) {
		l.Warn("netvar: custom codec without both Write and Read: values without one are logged and dropped")
	}
	if v.recip == Filter && v.scope == ScopeLocalPlayer {
		l.Warn("netvar: Filter on a LocalPlayer var is inert: the owner always receives it")
	}
	if v.recip == Filter && v.noSync {
		l.Warn("netvar: SetNoSync with Filter: the var has no revocation path")
	}
	if v.hasDef {
		d, warn, reject := v.spec.check(v.def)
		switch {
		case reject != nil && v.spec.enum != nil:
			l.Warn("netvar: SetDefault outside the var's Enum: every revoke would be rejected by clients; the default is dropped", "default", v.def)
			v.def, v.hasDef = nil, false
		case reject != nil:
			l.Error("netvar: SetDefault does not fit the codec; the default is dropped", "err", reject)
			v.def, v.hasDef = nil, false
		case warn != nil:
			l.Error("netvar: SetDefault", "err", warn)
			v.def = d
		default:
			v.def = d
		}
	}
	if v.clientOwned {
		switch {
		case v.scope != ScopePlayer && v.scope != ScopeLocalPlayer:
			l.Error("netvar: ClientOwned requires SetPlayer or SetLocalPlayer: flag cleared", "scope", v.scope)
			v.clientOwned = false
		case !v.spec.bounded():
			l.Error("netvar: ClientOwned requires a bounded codec (the registration, not the sender, decides the read size): flag cleared", "codec", v.spec.codec)
			v.clientOwned = false
		case v.debounce == 0:
			l.Error("netvar: ClientOwned requires a Debounce: flag cleared")
			v.clientOwned = false
		}
	}
	switch {
	case v.clientOwned && v.predictable:
		l.Warn("netvar: Predictable on a ClientOwned var is redundant: client-owned already applies locally")
	case v.predictable && v.scope != ScopeLocalPlayer:
		l.Error("netvar: Predictable is only valid on SetLocalPlayer: no client-side setter is generated", "scope", v.scope)
		v.predictable = false
	}
}

// targetMaxBits is the worst-case group header of a scope.
func targetMaxBits(s Scope) int {
	if s == ScopeGlobal {
		return KindBits
	}
	return KindBits + EntityIDBits + UserIDBits
}

// updateMaxBits is the worst-case Update payload of v.
func updateMaxBits(idBits uint, v *Var) int {
	m := v.spec.maxBits()
	if m < 0 {
		return -1
	}
	return targetMaxBits(v.scope) + int(idBits) + entryStateBits + m
}
