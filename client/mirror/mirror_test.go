package mirror

import (
	"testing"

	"dlmp/internal/wire"
)

// TestApplyKeepsNoReference: a client parses every packet into a struct it
// reuses, so the mirror must copy what it keeps.
func TestApplyKeepsNoReference(t *testing.T) {
	m := newMirror(t, frozenHello())
	lb := label(1, 0, 0, Vec3{}, 10, "first")
	z := zone(2, 0x112233, 0, 0)
	b := &wire.Blip{BlipID: 3, Active: 1, X: 1, Size: 1}
	cs := sphere(4, 5)
	for _, p := range []wire.Packet{lb, z, b, cs} {
		apply(t, m, p, at(0))
	}
	_ = lb.SetText("second")
	z.Color, b.X, cs.BX = 0x445566, 9, 9
	if got := m.Labels()[0].Text; got != "first" {
		t.Errorf("label text = %q after the packet was reused, want %q", got, "first")
	}
	if got, _ := m.Zone(2); got.Color != 0x112233 {
		t.Errorf("zone color = %06X after the packet was reused, want 112233", got.Color)
	}
	if got := m.Blips()[0].Pos.X; got != 1 {
		t.Errorf("blip x = %v after the packet was reused, want 1", got)
	}
	if got := m.Colshapes()[0].B.X; got != 5 {
		t.Errorf("colshape radius = %v after the packet was reused, want 5", got)
	}
}

func TestIgnoredPackets(t *testing.T) {
	m := newMirror(t, frozenHello())
	chat := &wire.ChatMessage{From: wire.ServerPlayerID, Color: 0xFFFFFF}
	chat.Text.Set("hi")
	apply(t, m, chat, at(0))
	apply(t, m, &wire.CreateExplosion{X: 1, Type: 2, Radius: 5}, at(0))
	if got := m.Stats().Ignored; got != 2 {
		t.Errorf("Ignored = %d, want 2", got)
	}
}

func TestTimeNeverRunsBackward(t *testing.T) {
	m := newMirror(t, frozenHello())
	apply(t, m, moving(1, Vec3{}, Vec3{}, Vec3{100, 0, 0}, Vec3{}, 10_000), at(0))
	m.Advance(at(5000))
	m.Advance(at(1000))
	if o, _ := m.Object(1); o.Pos.X != 50 {
		t.Errorf("after advancing to 5 s then 1 s: x = %v, want 50", o.Pos.X)
	}
	if got := m.Now(); !got.Equal(at(5000)) {
		t.Errorf("Now() = %v, want %v", got, at(5000))
	}
}
