package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

// TestShownHideKeepsOthers: a hide moves the last shown player into the
// hole; every other player is still found by its id, with its position,
// and its moves still apply. A shown-again player starts without a
// position, and its seq survived the hide.
func TestShownHideKeepsOthers(t *testing.T) {
	m := newMirror(t, frozenHello())
	for _, id := range []uint16{1, 2, 3} {
		apply(t, m, playerShow(id, "pal", 1), t0)
		movePlayer(t, m, id, 10, Vec3{float64(id), 0, 0}, 0, t0)
	}
	apply(t, m, playerShow(1, "pal", 0), t0) // 3 moves into 1's place
	for _, id := range []uint16{2, 3} {
		if p, ok := m.Player(id); !ok || p.ID != id || p.Pos.X != float64(id) {
			t.Errorf("after hiding 1: Player(%d) = %+v, %v; want it at x %d", id, p, ok, id)
		}
	}
	movePlayer(t, m, 3, 11, Vec3{30, 0, 0}, 0, t0)
	if p, _ := m.Player(3); p.Pos.X != 30 {
		t.Errorf("got player 3 at x %v after its move, want 30", p.Pos.X)
	}
	if p, _ := m.Player(2); p.Pos.X != 2 {
		t.Errorf("got player 2 at x %v after 3's move, want 2", p.Pos.X)
	}
	apply(t, m, playerShow(1, "quin", 1), t0)
	movePlayer(t, m, 1, 10, Vec3{50, 0, 0}, 0, t0) // not above the seq before the hide
	if p, _ := m.Player(1); p.HasPos || p.Name != "quin" {
		t.Errorf("got player 1 %+v, want quin without a position", p)
	}
	var ids []uint16
	for _, p := range m.Players() {
		ids = append(ids, p.ID)
	}
	if len(ids) != 3 || ids[0] != 1 || ids[1] != 2 || ids[2] != 3 {
		t.Errorf("Players() ids = %v, want [1 2 3]", ids)
	}
	apply(t, m, playerShow(3, "pal", 0), t0) // the last one: no move
	apply(t, m, playerShow(2, "pal", 0), t0)
	if p, ok := m.Player(1); !ok || p.Name != "quin" {
		t.Errorf("got Player(1) = %+v, %v after the others' hides, want quin", p, ok)
	}
	if got := len(m.Players()); got != 1 {
		t.Errorf("got %d players, want 1", got)
	}
}

// TestShownIDsBeyondSlots: ids past the slots (CheckRecv refuses them
// before the mirror) are neither shown nor moved nor fresh, and do not
// panic.
func TestShownIDsBeyondSlots(t *testing.T) {
	m := newMirror(t, frozenHello())
	m.Apply(&wire.PlayerShow{PlayerID: wire.MaxPlayers, Active: 1}, t0)
	if m.ApplySnapshot(&wire.PlayerMove{PlayerID: wire.MaxPlayers, Seq: 1}, t0) {
		t.Error("ApplySnapshot called a move of player id MaxPlayers fresh")
	}
	m.Apply(&wire.PlayerShow{PlayerID: wire.MaxPlayers}, t0)
	if got := len(m.Players()); got != 0 {
		t.Errorf("got %d players, want 0", got)
	}
	if got := m.Stats().UnshownMoves; got != 1 {
		t.Errorf("got %d unshown moves, want 1", got)
	}
}

// TestSnapshotFreshWhenUnshown: ApplySnapshot calls a move fresh by its
// seq alone, shown or not, and records the seq of an unshown one: after
// the show, an older move is stale; only a shown player moves.
func TestSnapshotFreshWhenUnshown(t *testing.T) {
	m := newMirror(t, frozenHello())
	mv := func(seq uint32, x float32) bool {
		return m.ApplySnapshot(&wire.PlayerMove{PlayerID: 4, Seq: seq, State: wire.StateOnFoot, X: x, Health: 100}, t0)
	}
	for _, s := range []struct {
		seq  uint32
		want bool
	}{{5, true}, {5, false}, {4, false}, {6, true}} {
		if got := mv(s.seq, 1); got != s.want {
			t.Errorf("unshown move seq %d: fresh %v, want %v", s.seq, got, s.want)
		}
	}
	if _, ok := m.Player(4); ok {
		t.Fatal("a move showed player 4")
	}
	apply(t, m, playerShow(4, "pal", 1), t0)
	if mv(6, 2) {
		t.Error("a move with the seq of an unshown one before the show was fresh")
	}
	if !mv(7, 3) {
		t.Error("a newer move after the show was not fresh")
	}
	if p, _ := m.Player(4); !p.HasPos || p.Pos.X != 3 {
		t.Errorf("got player 4 %+v, want it at x 3", p)
	}
	if got := m.Stats(); got.StaleMoves != 3 || got.UnshownMoves != 2 {
		t.Errorf("Stats() = %+v, want 3 stale and 2 unshown moves", got)
	}
}
