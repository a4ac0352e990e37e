package world

import (
	"testing"
	"unsafe"
)

// TestPlayerTickFieldsInFewLines: what a tick reads of every player whose
// views are not due (Tick's and tickEntities' loops: gone, left, position,
// skin, the anchors and ops-left flags of every view, the waypoint's
// pending flag, the slow pass's time and flags, the crossings' queue, the
// landing hold, the move flags) lies in at most six 64-byte lines of the
// Player, and a Player's allocation is a whole number of lines (its size
// class keeps it line-aligned). Spread as they were, the same fields
// touched sixteen lines.
func TestPlayerTickFieldsInFewLines(t *testing.T) {
	var p Player
	base := uintptr(unsafe.Pointer(&p))
	type field struct {
		name string
		ptr  unsafe.Pointer
		size uintptr
	}
	fields := []field{
		{"left", unsafe.Pointer(&p.left), unsafe.Sizeof(p.left)},
		{"gone", unsafe.Pointer(&p.gone), unsafe.Sizeof(p.gone)},
		{"hasPos", unsafe.Pointer(&p.hasPos), unsafe.Sizeof(p.hasPos)},
		{"pickupsLeft", unsafe.Pointer(&p.pickupsLeft), unsafe.Sizeof(p.pickupsLeft)},
		{"scope", unsafe.Pointer(&p.scope), unsafe.Sizeof(p.scope)},
		{"pos", unsafe.Pointer(&p.pos), unsafe.Sizeof(p.pos)},
		{"skin", unsafe.Pointer(&p.skin), unsafe.Sizeof(p.skin)},
		{"pickAnchor", unsafe.Pointer(&p.pickAnchor), unsafe.Sizeof(p.pickAnchor)},
		{"wp.pending", unsafe.Pointer(&p.wp.pending), unsafe.Sizeof(p.wp.pending)},
		{"objCut.left", unsafe.Pointer(&p.objCut.left), unsafe.Sizeof(p.objCut.left)},
		{"prims.labels", unsafe.Pointer(&p.prims.labels), unsafe.Sizeof(p.prims.labels)},
		{"prims.due", unsafe.Pointer(&p.prims.due), unsafe.Sizeof(p.prims.due)},
		{"prims.recheck", unsafe.Pointer(&p.prims.recheck), unsafe.Sizeof(p.prims.recheck)},
		{"prims.blipsDirty", unsafe.Pointer(&p.prims.blipsDirty), unsafe.Sizeof(p.prims.blipsDirty)},
		{"prims.zonesDirty", unsafe.Pointer(&p.prims.zonesDirty), unsafe.Sizeof(p.prims.zonesDirty)},
		{"prims.cross.queue", unsafe.Pointer(&p.prims.cross.queue), unsafe.Sizeof(p.prims.cross.queue)},
		{"ent.rev", unsafe.Pointer(&p.ent.rev), unsafe.Sizeof(p.ent.rev)},
		{"ent.skin", unsafe.Pointer(&p.ent.skin), unsafe.Sizeof(p.ent.skin)},
		{"ent.moved", unsafe.Pointer(&p.ent.moved), unsafe.Sizeof(p.ent.moved)},
		{"ent.lastMoved", unsafe.Pointer(&p.ent.lastMoved), unsafe.Sizeof(p.ent.lastMoved)},
		{"ent.playersLeft", unsafe.Pointer(&p.ent.playersLeft), unsafe.Sizeof(p.ent.playersLeft)},
		{"ent.vehiclesLeft", unsafe.Pointer(&p.ent.vehiclesLeft), unsafe.Sizeof(p.ent.vehiclesLeft)},
		{"ent.playerAt", unsafe.Pointer(&p.ent.playerAt), unsafe.Sizeof(p.ent.playerAt)},
		{"ent.vehicleAt", unsafe.Pointer(&p.ent.vehicleAt), unsafe.Sizeof(p.ent.vehicleAt)},
		{"ent.objectAt", unsafe.Pointer(&p.ent.objectAt), unsafe.Sizeof(p.ent.objectAt)},
		{"ent.hold", unsafe.Pointer(&p.ent.hold), unsafe.Sizeof(p.ent.hold)},
	}
	// A Player has pointers and is over 512 bytes: the allocator puts an
	// 8-byte header before it, so it starts 8 bytes past a line (its size
	// class, 2304, is a whole number of lines). The lines are counted where
	// a Player really lies.
	f := newFixture(t, nil)
	for range 8 {
		q, _ := f.joinE()
		at := uintptr(unsafe.Pointer(q))
		if at%64 != 8 {
			t.Fatalf("got player %d at %#x (%d past a line), want 8 past", q.id, at, at%64)
		}
		lines := map[uintptr][]string{}
		for _, f := range fields {
			off := at + uintptr(f.ptr) - base
			for l := off / 64; l <= (off+f.size-1)/64; l++ {
				lines[l] = append(lines[l], f.name)
			}
		}
		if len(lines) > 6 {
			t.Fatalf("got the tick's fields in %d lines of a Player, want at most 6: %v", len(lines), lines)
		}
	}
}
