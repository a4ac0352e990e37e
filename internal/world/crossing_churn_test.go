package world

import (
	"testing"

	"dlmp/internal/wire"
)

// TestFlapCount checks BenchmarkCrossingChurn's counter on a scripted
// series of events from one viewer about one player and its label: a
// show and a hide 9 ticks apart are both a flap within every window (a
// visit), a show 90 ticks after that hide only within 5 s (a return), and
// a label hide, which names only the label, counts for the player its
// show named.
func TestFlapCount(t *testing.T) {
	c := newOneSpot(t, 3, 10)
	h := newFlapCount(c)
	h.on = true
	o := c.ms[1].p.id
	show := func(active uint8) []byte {
		p := wire.PlayerShow{PlayerID: o, Active: active, Skin: 1}
		copy(p.PlayerName[:], "abc")
		return p.Append(nil)
	}
	label := func(active uint8) []byte {
		p := wire.Label3D{LabelID: 77, Active: active}
		if active == 1 {
			p.AttachKind, p.AttachID, p.DrawDistance = wire.AttachPlayer, uint32(o), 40
		}
		return p.Append(nil)
	}
	for _, s := range []struct {
		tick int
		msg  []byte
	}{{1, show(1)}, {1, label(1)}, {10, show(0)}, {10, label(0)}, {100, show(1)}, {100, label(1)}} {
		c.ticks = s.tick
		c.conns[0].Send(s.msg, 0)
	}
	for _, k := range []struct {
		name string
		k    *flapKind
	}{{"player", &h.players}, {"label", &h.labels}} {
		if got, want := k.k.events, 3; got != want {
			t.Errorf("%s events: got %d, want %d", k.name, got, want)
		}
		if got, want := k.k.flaps, [len(churnWindows)]int{2, 2, 3}; got != want {
			t.Errorf("%s flaps: got %v, want %v", k.name, got, want)
		}
		if got, want := k.k.visits, [len(churnWindows)]int{1, 1, 1}; got != want {
			t.Errorf("%s visits: got %v, want %v", k.name, got, want)
		}
		if got, want := k.k.returns, [len(churnWindows)]int{0, 0, 1}; got != want {
			t.Errorf("%s returns: got %v, want %v", k.name, got, want)
		}
	}
	if got, want := h.players.bandShows[0]+h.players.bandShows[1]+h.players.bandShows[2], 2; got != want {
		t.Errorf("player shows in the bands: got %d, want %d", got, want)
	}
}
