package world

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
)

// FuzzPackets feeds a spawned player arbitrary PlayerSync, PickupTouch and
// PlayerWaypoint packets, skipping CheckRecv (the world must hold even when
// a caller forgets it), interleaved with ticks: nothing may panic, and the
// accepted position must stay finite and within world bounds.
func FuzzPackets(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{2, 1, 0, 0, 0x80, 0x7f, 0, 0, 0xc0, 0x7f, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		fx := newFixture(t, nil)
		p, c := fx.join()
		fx.spawn(p, c, grid.Vec{X: 1})
		fx.pickup(PickupParams{Pos: grid.Vec{X: 2}})
		fx.pickup(PickupParams{Pos: grid.Vec{X: 2}, Behavior: Static})
		fx.gm.onInteract = func(e PickupInteraction) { _ = fx.w.CollectPickup(e.Pickup) }
		f32 := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[i:])) }
		for len(b) >= 21 {
			fx.now = fx.now.Add(time.Duration(b[1]) * time.Millisecond)
			switch b[0] % 4 {
			case 0:
				fx.w.Packet(p, &wire.PlayerSync{Seq: 1, Landed: binary.LittleEndian.Uint32(b[2:]), State: b[6] % 6,
					X: f32(7), Y: f32(11), Z: f32(15), Health: b[19], Interior: b[20] % 2}, fx.now)
			case 1:
				fx.w.Packet(p, &wire.PickupTouch{PickupID: uint32(b[2] % 4)}, fx.now)
			case 2:
				fx.w.Packet(p, &wire.PlayerWaypoint{Active: b[2] % 3, X: f32(3), Y: f32(7)}, fx.now)
			case 3:
				fx.w.Tick(fx.now)
			}
			if pos, ok := p.Position(); ok && !inWorld(pos) {
				t.Fatalf("accepted position %+v outside world bounds", pos)
			}
			if p.Life() == Dead {
				_ = fx.w.Respawn(p, Landing{Pos: grid.Vec{X: 1}})
			}
			b = b[21:]
		}
	})
}
