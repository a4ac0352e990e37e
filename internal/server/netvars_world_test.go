package server

import (
	"slices"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/netvar"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// TestWorldView checks the store's view of a real world: connected
// players, climbing UserIDs, places, and the PVS — the players an entity is
// streamed to by the world's views (300 m for players), and the player
// themselves.
func TestWorldView(t *testing.T) {
	c := config.Default()
	w, err := world.New(c, nil, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	nv, err := newNetvars(netvar.NewRegistry(), w, c.Netvar)
	if err != nil {
		t.Fatal(err)
	}
	type at struct {
		pos   grid.Vec
		world uint32
	}
	spots := []at{
		{grid.Vec{X: 0, Y: 0, Z: 10}, 0},
		{grid.Vec{X: 150, Y: 0, Z: 10}, 0}, // 150 m from 0: streamed
		{grid.Vec{X: 0, Y: 299, Z: 10}, 0}, // 299 m from 0, 336 m from 1
		{grid.Vec{X: 0, Y: 0, Z: 10}, 7},   // same point, another virtual world
		{grid.Vec{X: 600, Y: 0, Z: 10}, 0}, // far from everyone
	}
	var ps []*world.Player
	for _, s := range spots {
		var hello wire.ServerHello
		conn := &countConn{}
		p, ok := w.Join(conn, &hello)
		if !ok {
			t.Fatal("world full")
		}
		if err := w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: s.pos, World: s.world}, Skin: 1, Health: 100}); err != nil {
			t.Fatal(err)
		}
		nv.join(conn, p)
		ps = append(ps, p)
	}
	// Their clients report the landing: positions accepted, then the tick
	// streams players to each other.
	now := time.Unix(0, 0)
	for i, p := range ps {
		s := spots[i]
		w.Packet(p, &wire.PlayerSync{Token: 1, Seq: 1, Landed: 1, State: wire.StateOnFoot, X: s.pos.X, Y: s.pos.Y, Z: s.pos.Z, Health: 100, World: s.world}, now)
	}
	w.Tick(now.Add(50 * time.Millisecond))
	v := worldView{nv}
	if got := v.Players(); len(got) != len(spots) {
		t.Fatalf("Players = %v, want %d", got, len(spots))
	}
	for i, p := range ps {
		if got := v.UserID(netvar.PlayerID(p.ID())); got != uint32(i+1) {
			t.Errorf("UserID of player %d = %d, want %d", p.ID(), got, i+1)
		}
	}
	pl, ok := v.Place(netvar.PlayerRef(ps[3].ID()))
	if !ok || pl.World != 7 || pl.Pos.Z != 10 {
		t.Errorf("Place of player 3 = %+v %v, want world 7 at z 10", pl, ok)
	}
	if _, ok := v.Place(netvar.Ref{Kind: netvar.KindVehicle, ID: 1}); ok {
		t.Error("a vehicle has a place in a world with no vehicles")
	}
	cases := []struct {
		of   int
		want []int
	}{
		{0, []int{0, 1, 2}},
		{1, []int{0, 1}},
		{2, []int{0, 2}},
		{3, []int{3}},
		{4, []int{4}},
	}
	for _, c := range cases {
		got := slices.Clone(v.StreamedTo(netvar.PlayerRef(ps[c.of].ID())))
		var want []netvar.PlayerID
		for _, i := range c.want {
			want = append(want, netvar.PlayerID(ps[i].ID()))
		}
		if !slices.Equal(got, want) {
			t.Errorf("StreamedTo(player %d) = %v, want %v", c.of, got, want)
		}
	}
	if got := v.StreamedTo(netvar.Ref{Kind: netvar.KindObject, ID: 1}); len(got) != 0 {
		t.Errorf("an object is streamed to %v, want no one", got)
	}
	// A player who leaves is no longer a recipient nor in anyone's PVS.
	w.Leave(ps[1], 0)
	nv.leave(ps[1])
	if got := v.StreamedTo(netvar.PlayerRef(ps[0].ID())); !slices.Equal(got, []netvar.PlayerID{netvar.PlayerID(ps[0].ID()), netvar.PlayerID(ps[2].ID())}) {
		t.Errorf("after a leave StreamedTo(player 0) = %v, want [%d %d]", got, ps[0].ID(), ps[2].ID())
	}
	if got := v.Players(); slices.Contains(got, netvar.PlayerID(ps[1].ID())) {
		t.Errorf("Players = %v still holds the leaver", got)
	}
}
