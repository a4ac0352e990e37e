package netvar

import (
	"dlmp/internal/bits"
)

// DefaultSyncBytes is network_sync_bytes: the flush threshold of a batched
// Resync payload, checked between groups. It leaves more than 56 KiB under
// the 64 KiB reliable-message limit for the one group a payload may
// overshoot by and the framing.
const DefaultSyncBytes = 8192

// MaxPayload is the largest payload this package emits: the 64 KiB
// reliable-message limit less room for the framing. A value whose Update
// would exceed it is refused at set; a Resync payload is split before an
// entry that would push it over.
const MaxPayload = 64*1024 - 256

// ResyncWriter builds Resync payloads: groups of entries per target,
//
//	{ 1 | target | { 1 | entry }* 0 }* 0
//
// starting a new payload when the current one reaches the threshold
// (checked between groups) and putting a custom-coded entry alone in a
// payload of its own. Finished payloads go to emit; the slice passed is
// reused afterwards, so emit must copy what it keeps.
type ResyncWriter struct {
	s         *Schema
	threshold int
	emit      func(payload []byte)
	buf       []byte
	w         bits.Writer
	open      bool // a payload has been started
	inGroup   bool
	groupT    Target
	groups    int
	entries   int // in the current payload
}

// NewResyncWriter returns a writer flushing at threshold bytes.
func NewResyncWriter(s *Schema, threshold int, emit func([]byte)) *ResyncWriter {
	return &ResyncWriter{s: s, threshold: threshold, emit: emit, buf: make([]byte, 0, 256)}
}

func (rw *ResyncWriter) start() {
	if !rw.open {
		rw.w = bits.NewWriter(rw.buf[:0])
		rw.open = true
		rw.groups, rw.entries = 0, 0
	}
}

// Group starts a group for target t, ending the previous one and flushing
// the payload first if it has reached the threshold.
func (rw *ResyncWriter) Group(t Target) {
	rw.endGroup()
	if rw.open && len(rw.w.Bytes()) >= rw.threshold {
		rw.Flush()
	}
	rw.groupT = t
	rw.inGroup = false // opened lazily by the first entry: an empty group costs nothing
}

func (rw *ResyncWriter) openGroup() {
	rw.start()
	rw.w.WriteBool(true)
	writeTarget(&rw.w, rw.groupT)
	rw.inGroup = true
	rw.groups++
}

func (rw *ResyncWriter) endGroup() {
	if rw.inGroup {
		rw.w.WriteBool(false)
		rw.inGroup = false
	}
}

// Entry adds one entry to the current group.
func (rw *ResyncWriter) Entry(v *Var, value any) {
	if !v.spec.batchable() {
		// Alone in its own payload: flush what is pending around it.
		t := rw.groupT
		rw.Flush()
		rw.groupT = t
		rw.openGroup()
		rw.w.WriteBool(true)
		WriteVarEntry(&rw.w, rw.s, v, value)
		rw.Flush()
		rw.groupT = t
		return
	}
	if !rw.inGroup {
		rw.openGroup()
	}
	m := rw.w.Mark()
	rw.w.WriteBool(true)
	WriteVarEntry(&rw.w, rw.s, v, value)
	if len(rw.w.Bytes()) > MaxPayload-1 && rw.entries > 0 {
		// Over the limit: move the entry to a fresh payload, same target.
		rw.w.Rollback(m)
		t := rw.groupT
		rw.Flush()
		rw.groupT = t
		rw.openGroup()
		rw.w.WriteBool(true)
		WriteVarEntry(&rw.w, rw.s, v, value)
	}
	rw.entries++
}

// Flush ends the current payload and emits it, if it holds any group.
func (rw *ResyncWriter) Flush() {
	rw.endGroup()
	if rw.open && rw.groups > 0 {
		rw.w.WriteBool(false)
		rw.buf = rw.w.Bytes()
		rw.emit(rw.buf)
	}
	rw.open = false
}

// DecodeResync reads a Resync payload, calling fn for each entry in order.
// On an error it stops: the entries already delivered stand, the rest of
// the payload is abandoned.
func DecodeResync(b []byte, s *Schema, fn func(t Target, v *Var, value any)) error {
	r := bits.NewReader(b)
	return decodeGroups(&r, s, fn)
}

func decodeGroups(r *bits.Reader, s *Schema, fn func(t Target, v *Var, value any)) error {
	for r.ReadBool() {
		t := readTarget(r)
		for r.ReadBool() {
			v, val, err := DecodeEntry(r, s)
			if err != nil {
				return err
			}
			fn(t, v, val)
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	return trailing(r)
}

// AppendSync appends a Sync payload: the manifest, then the bootstrap
// groups (Globals and the player's own LocalPlayer values) in the Resync
// group format, starting on a byte boundary.
func AppendSync(b []byte, manifest []byte, groups func(w *bits.Writer)) []byte {
	b = append(b, manifest...)
	w := bits.NewWriter(b)
	if groups != nil {
		groups(&w)
	}
	w.WriteBool(false)
	return w.Bytes()
}
