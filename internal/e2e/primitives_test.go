package e2e

import (
	"fmt"
	"testing"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// TestCheckpointEnterLeave: the server computes entry and exit from the
// client's synced position and raises checkpoint_enter / checkpoint_leave.
func TestCheckpointEnterLeave(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		c := e.dial()
		walkTo(t, c, spawnAt, 100)
		var id uint32
		e.do(func(w *world.World, m *mode) {
			var err error
			id, err = w.CreateCheckpoint(w.Player(c.PlayerID()), world.CheckpointParams{Pos: grid.Vec{X: 30, Y: 0, Z: 3}, Radius: 4, Color: 0xFF0000})
			if err != nil {
				t.Error(err)
			}
		})
		eventually(t, "the client shows its checkpoint", 10*time.Second, func() bool {
			return view(c, func(m *mirror.Mirror) bool { return len(m.Checkpoints()) == 1 })
		})
		crossings := func() (out []string) {
			e.do(func(w *world.World, m *mode) { out = append(out, m.crossings...) })
			return
		}
		for x := float32(0); x <= 30; x += 3 { // run there at a plausible speed
			c.SetSync(syncAt(grid.Vec{X: x, Y: 0, Z: 3}, 100))
			time.Sleep(100 * time.Millisecond)
		}
		eventually(t, "checkpoint_enter", 10*time.Second, func() bool { return len(crossings()) == 1 })
		for x := float32(30); x >= 15; x -= 3 {
			c.SetSync(syncAt(grid.Vec{X: x, Y: 0, Z: 3}, 100))
			time.Sleep(100 * time.Millisecond)
		}
		eventually(t, "checkpoint_leave", 10*time.Second, func() bool { return len(crossings()) == 2 })
		want := []string{fmt.Sprintf("enter %d", id), fmt.Sprintf("leave %d", id)}
		if got := crossings(); got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("crossings %v, want %v", got, want)
		}
	})
}

// TestAttachedLabelHiddenFromItsPlayer: a label attached to a player is
// shown to another player near them and never to the player themselves.
func TestAttachedLabelHiddenFromItsPlayer(t *testing.T) {
	both(t, func(t *testing.T, lossy bool) {
		e := start(t, lossy)
		a, b := e.dial(), e.dial()
		walkTo(t, a, spawnAt, 100)
		walkTo(t, b, grid.Vec{X: 5, Y: 0, Z: 3}, 100)
		e.do(func(w *world.World, m *mode) {
			if _, err := w.CreateLabel(world.LabelParams{Text: "[A]", Color: 0xFFFFFF, Pos: grid.Vec{Z: 1}, DrawDistance: 50,
				AttachKind: wire.AttachPlayer, AttachID: uint32(a.PlayerID())}); err != nil {
				t.Error(err)
			}
		})
		eventually(t, "b shows a's label", 10*time.Second, func() bool {
			return view(b, func(m *mirror.Mirror) bool { return len(m.Labels()) == 1 })
		})
		time.Sleep(300 * time.Millisecond)
		if n := view(a, func(m *mirror.Mirror) int { return len(m.Labels()) }); n != 0 {
			t.Fatalf("the attached player holds %d labels, want 0", n)
		}
	})
}
