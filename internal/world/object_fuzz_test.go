package world

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// FuzzEntities drives two players, a vehicle and a few objects with
// arbitrary driver syncs (no CheckRecv) and arbitrary object commands,
// interleaved with ticks and acks: nothing may panic, no packet the client
// drops may be sent (the testConn decodes every one with the client's
// rules), and no view may hold more than its limit or a deleted object.
func FuzzEntities(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{1, 0, 1, 0, 2, 0, 3, 1, 4, 2, 5, 0, 6, 1, 7, 2, 8, 3, 9, 0, 0x7f, 0xc0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		fx := newFixture(t, nil)
		p, pc := fx.join()
		q, qc := fx.join()
		fx.spawn(p, pc, at(0, 0))
		fx.spawn(q, qc, at(5, 0))
		v := fx.vehicle(VehicleParams{Pos: at(2, 0), Respawn: time.Second})
		var objs []uint32
		for i := range 4 {
			objs = append(objs, fx.object(ObjectParams{Model: 1225, Pos: at(float32(i), 3)}))
		}
		f32 := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[i:])) }
		for len(b) >= 8 {
			obj := objs[int(b[1])%len(objs)]
			other := objs[int(b[2])%len(objs)]
			fx.now = fx.now.Add(time.Duration(b[3]) * time.Millisecond)
			switch b[0] % 10 {
			case 0:
				fx.w.Packet(p, &wire.PlayerSync{Seq: 1, Landed: pc.landing, State: 2, VehicleID: uint16(b[1] % 3),
					X: f32(4) / 1e30, Y: 0, Z: 10, QX: f32(4), QW: 1, VehicleHealth: uint16(b[2]) * 5}, fx.now)
			case 1:
				_ = fx.w.AttachObject(obj, AttachParams{Kind: Kind(b[2] % 4), ID: uint32(b[4] % 3), Bone: b[5] % 19,
					Offset: grid.Vec{X: f32(4) / 1e36}, InPlace: b[6]%2 == 0})
			case 2:
				_ = fx.w.AttachObject(obj, AttachParams{Kind: KindObject, ID: other})
			case 3:
				_ = fx.w.DetachObject(obj)
			case 4:
				_ = fx.w.MoveObject(obj, at(float32(b[4]), float32(b[5])), Rot{Z: f32(4)}, time.Duration(b[6])*100*time.Millisecond)
			case 5:
				_ = fx.w.SetObjectBroken(obj, b[4]%2 == 0)
			case 6:
				_ = fx.w.DeleteObject(obj)
				if id, err := fx.w.CreateObject(ObjectParams{Model: 1225, Pos: at(float32(b[4]), 0)}); err == nil {
					objs[int(b[1])%len(objs)] = id
				}
			case 7:
				_ = fx.w.Teleport(q, Landing{Pos: at(float32(b[4]), 0), Interior: b[5] % 2})
			case 8:
				_ = fx.w.RespawnVehicle(v)
				pc.ackAll()
				qc.ackAll()
			case 9:
				fx.w.Tick(fx.now)
			}
			for _, pl := range []*Player{p, q} {
				if n := pl.ent.objects.Len(); n > 1000 {
					t.Fatalf("player %d shown %d objects", pl.ID(), n)
				}
			}
			b = b[8:]
		}
		fx.w.Tick(fx.now)
		for i := uint32(1); i <= fx.w.ents.nextObject; i++ {
			o := fx.w.Object(i)
			if o != nil && o.id != i {
				t.Fatalf("object table: id %d holds object %d", i, o.id)
			}
			if o != nil && (fx.w.ents.hot[i].rev != o.rev || o.inGrid && o.ruled != (o.viewer != nil || o.kind != 0)) {
				t.Fatalf("object %d: dense copy %+v disagrees with rev %d", i, fx.w.ents.hot[i], o.rev)
			}
			if o == nil {
				for _, pl := range []*Player{p, q} {
					if _, ok := pl.ent.objects.Shown(uint32(i)); ok && pl.ent.objects.Pending() == 0 {
						t.Fatalf("deleted object %d still shown to player %d", i, pl.ID())
					}
				}
			}
		}
	})
}
