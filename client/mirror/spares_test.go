package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

func playerShow(id uint16, name string, active uint8) *wire.PlayerShow {
	p := &wire.PlayerShow{PlayerID: id, Active: active, Skin: 7, Color: 0xFF00FF}
	copy(p.PlayerName[:], name)
	return p
}

// TestHiddenCopiesReused: a hidden player's and label's copies are reused
// for the next shows, and nothing of the hidden one shows through: the
// next player shown has its own name and no position, the next label its
// own text. A crowd's churn (a player and its label hidden, another shown)
// allocates nothing once the spares exist.
func TestHiddenCopiesReused(t *testing.T) {
	m := newMirror(t, frozenHello())
	apply(t, m, playerShow(5, "alpha_long_name", 1), t0)
	apply(t, m, &wire.PlayerMove{Seq: 1, PlayerID: 5, State: wire.StateOnFoot, X: 10, Y: 20, Z: 3, Health: 100}, t0)
	long := &wire.Label3D{LabelID: 5, Active: 1, Color: 0xFFFFFF, DrawDistance: 30}
	if err := long.SetText("a rather long label text"); err != nil {
		t.Fatal(err)
	}
	apply(t, m, long, t0)
	apply(t, m, playerShow(5, "alpha_long_name", 0), t0)
	apply(t, m, &wire.Label3D{LabelID: 5, Active: 0}, t0)

	apply(t, m, playerShow(6, "beta", 1), t0)
	short := &wire.Label3D{LabelID: 6, Active: 1, Color: 0xFFFFFF, DrawDistance: 30}
	if err := short.SetText("hi"); err != nil {
		t.Fatal(err)
	}
	apply(t, m, short, t0)
	pl, ok := m.Player(6)
	if !ok || pl.Name != "beta" || pl.HasPos || pl.Pos != (Vec3{}) || pl.Health != 0 {
		t.Errorf("got player 6 %+v (shown %v), want beta with no position", pl, ok)
	}
	if _, ok := m.Player(5); ok {
		t.Error("player 5 still shown after its hide")
	}
	if got := m.Labels(); len(got) != 1 || got[0].ID != 6 || got[0].Text != "hi" {
		t.Errorf("got labels %+v, want only 6 \"hi\"", got)
	}

	hideP, showP, hideL := playerShow(6, "beta", 0), playerShow(6, "beta", 1), &wire.Label3D{LabelID: 6, Active: 0}
	allocs := testing.AllocsPerRun(100, func() {
		m.Apply(hideP, t0)
		m.Apply(hideL, t0)
		m.Apply(showP, t0)
		m.Apply(short, t0)
	})
	if allocs > 0 {
		t.Errorf("got %.0f allocations per hide and show of a player and its label, want 0", allocs)
	}
}
