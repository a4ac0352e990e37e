package world

import (
	"testing"
	"unsafe"
)

// TestObjectSize: what a show reads of an object (fillObject, and the id
// and mv sendObjectOps loads first) lies in the object's first 64 bytes,
// and an Object is 128 bytes, so that in objectTable's page-aligned chunks
// those 64 bytes are one cache line (a show's miss, not two).
func TestObjectSize(t *testing.T) {
	var o Object
	if got := unsafe.Sizeof(o); got != 128 {
		t.Fatalf("got Object of %d bytes, want 128", got)
	}
	shown := []struct {
		name      string
		off, size uintptr
	}{
		{"id", unsafe.Offsetof(o.id), unsafe.Sizeof(o.id)},
		{"model", unsafe.Offsetof(o.model), unsafe.Sizeof(o.model)},
		{"bone", unsafe.Offsetof(o.bone), unsafe.Sizeof(o.bone)},
		{"pos", unsafe.Offsetof(o.pos), unsafe.Sizeof(o.pos)},
		{"rot", unsafe.Offsetof(o.rot), unsafe.Sizeof(o.rot)},
		{"rev", unsafe.Offsetof(o.rev), unsafe.Sizeof(o.rev)},
		{"parentID", unsafe.Offsetof(o.parentID), unsafe.Sizeof(o.parentID)},
		{"scope", unsafe.Offsetof(o.scope), unsafe.Sizeof(o.scope)},
		{"kind", unsafe.Offsetof(o.kind), unsafe.Sizeof(o.kind)},
		{"mv", unsafe.Offsetof(o.mv), unsafe.Sizeof(o.mv)},
	}
	for _, f := range shown {
		if f.off+f.size > 64 {
			t.Errorf("got %s at bytes %d..%d, want within the first 64", f.name, f.off, f.off+f.size)
		}
	}
	f := newFixture(t, nil)
	for range 64 {
		id := f.object(ObjectParams{})
		if a := uintptr(unsafe.Pointer(f.w.Object(id))); a%64 != 0 {
			t.Fatalf("got object %d at %#x, want 64-byte aligned", id, a)
		}
	}
}
