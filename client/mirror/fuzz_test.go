package mirror

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// FuzzApply feeds any stream of Server → Client packets that pass their
// CheckRecv, as a client would, with time moving on between them, then
// reads everything back. Nothing may panic or hang (attachment cycles,
// chains, hides of unknown ids), and the object indexes must agree.
func FuzzApply(f *testing.F) {
	var seed []byte
	for _, p := range []wire.Packet{
		standing(1, Vec3{1, 2, 3}, Vec3{0, 0, 90}),
		attached(2, wire.AttachObject, 1, Vec3{1, 0, 0}, Vec3{}),
		attached(3, wire.AttachObject, 2, Vec3{1, 0, 0}, Vec3{}),
		attached(4, wire.AttachObject, 4, Vec3{}, Vec3{}),
		moving(5, Vec3{}, Vec3{}, Vec3{10, 0, 0}, Vec3{0, 0, 90}, 500),
		attached(6, wire.AttachPlayer, 3, Vec3{}, Vec3{}),
		&wire.PlayerShow{PlayerID: 3, Active: 1, PlayerName: wire.PlayerName{'a', 'b', 'c'}},
		&wire.PlayerMove{Seq: 1, PlayerID: 3, State: wire.StateOnFoot, Health: 100},
		label(7, wire.AttachPlayer, 3, Vec3{}, 50, "x"),
		&wire.Blip{BlipID: 8, Active: 1, AttachKind: wire.AttachPlayer, AttachID: 3, Size: 1},
		zone(9, 0, 0xFFFFFF, 1),
		showPickup(10, 0, 0, 0, 1),
		&wire.SpawnPlayer{EventID: 1, Skin: 1, Health: 100},
		&wire.RunClock{Hours: 1, Minutes: 2, MinuteMs: 1000},
		&wire.SetWaypoint{Active: 1, X: 5, Y: 5},
		&wire.PlayerShow{PlayerID: 3},
		hideObject(1),
	} {
		seed = p.Append(seed)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		m := New(frozenHello(), t0)
		var s wire.Splitter
		now := t0
		for len(data) > 0 {
			p, n, err := s.Next(data)
			if err != nil {
				break
			}
			data = data[n:]
			now = now.Add(time.Duration(n) * time.Millisecond)
			if p.Dir() != wire.ServerToClient || p.CheckRecv() != nil {
				continue
			}
			m.Apply(p, now)
			checkObjectIndexes(t, m)
		}
		m.Advance(now.Add(time.Hour))
		checkObjectIndexes(t, m)
		for _, o := range m.Objects() {
			m.ObjectPose(o.ID)
		}
		m.VisibleLabels(nil, Vec3{})
		m.Blips()
		m.Zones()
		m.Outlines()
		m.Touches(nil, Vec3{}, now.Add(time.Hour))
		m.WaypointReport()
		_ = m.Time()
	})
}

// checkObjectIndexes checks that the moving list and the children index
// agree with the objects held.
func checkObjectIndexes(t *testing.T, m *Mirror) {
	t.Helper()
	for i, o := range m.moving {
		if o.moving != i || m.objects[o.id] != o {
			t.Fatalf("moving[%d] = object %d with index %d, held %v", i, o.id, o.moving, m.objects[o.id] == o)
		}
	}
	kids := 0
	for key, ids := range m.children {
		for _, id := range ids {
			o := m.objects[id]
			if o == nil || o.attach != key {
				t.Fatalf("children[%+v] lists object %d, which is not attached there", key, id)
			}
			kids++
		}
	}
	attached := 0
	for _, o := range m.objects {
		if o.attach.kind != wire.AttachNone {
			attached++
		}
	}
	if kids != attached {
		t.Fatalf("children index lists %d objects, %d are attached", kids, attached)
	}
}
