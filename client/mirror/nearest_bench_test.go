package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

// BenchmarkNearestGoal is a bot's goal lookup, once per tick each: the
// nearest of 4 checkpoints and of 30 pickups. "copies" as the bots did
// before, Checkpoints and Pickups (copied, sorted) and a search over them,
// beside "nearest", NearestCheckpoint and NearestPickup.
func BenchmarkNearestGoal(b *testing.B) {
	m := newMirror(b, frozenHello())
	for id := uint32(1); id <= 30; id++ {
		if id <= 4 {
			m.Apply(&wire.Checkpoint{CheckpointID: id, Active: 1, X: float32(id * 40), Y: 10, Radius: 4}, t0)
		}
		m.Apply(showPickup(id, float32(id*7), float32(id*3), 1, 1), t0)
	}
	x, y := 55.0, 20.0
	b.Run("copies", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bd := -1.0
			for _, c := range m.Checkpoints() {
				if d := (c.Pos.X-x)*(c.Pos.X-x) + (c.Pos.Y-y)*(c.Pos.Y-y); bd < 0 || d < bd {
					bd = d
				}
			}
			bd = -1.0
			for _, p := range m.Pickups() {
				pos := p.Pos()
				if d := (pos.X-x)*(pos.X-x) + (pos.Y-y)*(pos.Y-y); bd < 0 || d < bd {
					bd = d
				}
			}
		}
	})
	b.Run("nearest", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.NearestCheckpoint(x, y)
			m.NearestPickup(x, y)
		}
	})
}
