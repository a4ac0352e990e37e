package netvar

import "dlmp/internal/bits"

// VarCounters are what one var cost on the wire since the store started:
// the live Updates sent (messages, bytes of their payloads) and the resync
// entries written (entries, bytes of the entries rounded up per entry).
type VarCounters struct {
	Updates, UpdateBytes uint64
	Resyncs, ResyncBytes uint64
}

// Bytes is everything the var cost.
func (c VarCounters) Bytes() uint64 { return c.UpdateBytes + c.ResyncBytes }

// counted returns v's counters, creating them.
func (st *Store) counted(v *Var) *VarCounters {
	if st.counters == nil {
		st.counters = map[*Var]*VarCounters{}
	}
	c := st.counters[v]
	if c == nil {
		c = &VarCounters{}
		st.counters[v] = c
	}
	return c
}

// countResync adds one resync entry of v with value.
func (st *Store) countResync(v *Var, value any) {
	w := bits.NewWriter(st.scratch[:0])
	WriteVarEntry(&w, st.s, v, value)
	c := st.counted(v)
	c.Resyncs++
	c.ResyncBytes += uint64((w.Bits() + 7) / 8)
	st.scratch = w.Bytes()
}

// Counters returns each var's counters by name (a copy).
func (st *Store) Counters() map[string]VarCounters {
	out := make(map[string]VarCounters, len(st.counters))
	for v, c := range st.counters {
		out[v.name] = *c
	}
	return out
}
