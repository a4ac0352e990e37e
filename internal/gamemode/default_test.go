package gamemode

import (
	"io/fs"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// The embedded default world runs: a player joins and spawns, takes the
// map's pickups, chats, travels to a waypoint, opens a garage, dies and
// respawns, and the weather changes.
func TestDefaultWorld(t *testing.T) {
	if _, err := fs.Stat(Default(), "main.lua"); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, Default())
	if f.w.Pickup(8) == nil || f.w.Pickup(9) != nil {
		t.Fatal("the default world does not hold its 7 map pickups and the information sign")
	}
	p, c := f.join()
	out := c.take()
	sp := only[*wire.SpawnPlayer](out)
	if len(sp) != 1 || len(only[*wire.RunClock](out)) != 1 || len(only[*wire.ChatMessage](out)) != 2 {
		t.Fatalf("join sent %v, want RunClock, SpawnPlayer and two chat lines", out)
	}
	at := grid.Vec{X: sp[0].X, Y: sp[0].Y, Z: sp[0].Z}
	f.sync(p, c, at, 100, 1)

	// Walk to a pickup and touch it (the map's order: health, health,
	// armor, m4, deagle, shotgun, bat).
	walk := func(id uint32, health uint8) []wire.Packet {
		t.Helper()
		f.advance(time.Second)
		f.sync(p, c, f.w.Pickup(id).Position(), health, 1)
		f.advance(tick)
		c.take()
		f.touch(p, id)
		return c.take()
	}
	if g := only[*wire.GiveWeapon](walk(4, 100)); len(g) != 1 || g[0].Weapon != 31 || g[0].Ammo != 200 {
		t.Fatalf("the m4 pickup gave %v", g)
	}
	if out := walk(1, 100); len(out) != 0 {
		t.Fatalf("a health pickup at full health sent %v", out)
	}
	if m := only[*wire.ChatMessage](walk(8, 100)); len(m) != 1 {
		t.Fatalf("the information sign said %v, want one line", m)
	}
	f.touch(p, 8) // static: once per visit
	if out := c.take(); len(out) != 0 {
		t.Fatalf("a second touch of the sign in the same visit sent %v", out)
	}
	if g := only[*wire.GiveHealth](walk(1, 50)); len(g) != 1 || g[0].Amount != 100 {
		t.Fatalf("the health pickup after damage gave %v", g)
	}

	chat := func(text string) []wire.Packet { f.chat(p, text); return c.take() }
	if m := only[*wire.ChatMessage](chat("/go")); len(m) != 1 || m[0].Color != 0xFF6060 {
		t.Fatalf("/go without a waypoint: %v", m)
	}
	f.w.Packet(p, &wire.PlayerWaypoint{Token: 1, Active: 1, X: 2000, Y: -1500}, f.now)
	if m := only[*wire.ChatMessage](c.take()); len(m) != 1 {
		t.Fatalf("no waypoint greeting: %v", m)
	}
	out = chat("/go")
	if tp := only[*wire.TeleportPlayer](out); len(tp) != 1 || tp[0].X != 2000 || tp[0].Y != -1500 {
		t.Fatalf("/go sent %v", out)
	}
	if g := only[*wire.GarageDoors](chat("/garage 3")); len(g) != 1 || g[0].Open != 1<<3 {
		t.Fatalf("/garage 3 sent %v", g)
	}
	if m := only[*wire.ChatMessage](chat("hello")); len(m) != 1 || m[0].From != p.ID() || m[0].Text.String() != "hello" {
		t.Fatalf("chat relay: %v", m)
	}
	if m := only[*wire.SetWeather](chat("/weather 9")); len(m) != 1 || m[0].Weather != 9 {
		t.Fatalf("/weather 9: %v", m)
	}
	if m := only[*wire.SetTime](chat("/time 21 15")); len(m) != 1 || m[0].Hours != 21 {
		t.Fatalf("/time 21 15: %v", m)
	}
	if e := only[*wire.CreateExplosion](chat("/boom")); len(e) != 1 || e[0].X != 2008 {
		t.Fatalf("/boom: %v", e)
	}
	if m := only[*wire.ChatMessage](chat("/help")); len(m) != 2 {
		t.Fatalf("/help: %v", m)
	}
	if m := only[*wire.ChatMessage](chat("/nope")); len(m) != 1 || m[0].Color != 0xFF6060 {
		t.Fatalf("/nope: %v", m)
	}

	checkWorldKinds(t, f, p, c)

	f.advance(time.Second)
	f.sync(p, c, grid.Vec{X: 2000, Y: -1500, Z: 40}, 0, 4) // dead where it fell
	f.advance(3 * time.Second)
	if r := only[*wire.RespawnPlayer](c.take()); len(r) != 1 {
		t.Fatal("no respawn 3 s after death")
	}
	f.advance(5 * time.Minute)
	if w := only[*wire.SetWeather](c.take()); len(w) != 1 || w[0].Weather != 2 {
		t.Fatalf("weather after 5 minutes: %v, want one change to 2", w)
	}
	f.m.Close()
	if m := only[*wire.ChatMessage](c.take()); len(m) != 1 {
		t.Fatalf("shutdown sent %v", m)
	}
	f.noErrorsAfterClose()
}

// checkWorldKinds checks the default world's race, name label, blips, gang
// zones, garage colshape, moving jetty and breakable barrel.
func checkWorldKinds(t *testing.T, f *fixture, p *world.Player, c *testConn) {
	t.Helper()
	var labels []string
	for l := range f.w.Labels() {
		if lp := l.Params(); lp.AttachKind == wire.AttachPlayer && lp.AttachID == uint32(p.ID()) {
			labels = append(labels, lp.Text)
		}
	}
	if len(labels) != 1 || labels[0] != p.Name() {
		t.Errorf("labels on the player: %q, want their name %q", labels, p.Name())
	}
	blips, zones, flashing := 0, 0, 0
	for range f.w.Blips() {
		blips++
	}
	for z := range f.w.GangZones() {
		if z.ShownToAll() {
			zones++
		}
		if z.Params().Flashing {
			flashing++
		}
	}
	if blips != 3 || zones != 2 || flashing != 1 {
		t.Errorf("%d blips, %d gang zones shown (%d flashing), want 3, 2 (1)", blips, zones, flashing)
	}

	// The race: each checkpoint entered gives the next; the last finishes.
	race := []grid.Vec{{X: 2470, Y: -1660, Z: 13.3}, {X: 2440, Y: -1660, Z: 13.3}, {X: 2400, Y: -1660, Z: 13.3},
		{X: 2360, Y: -1660, Z: 13.3}, {X: 2300, Y: -1660, Z: 13.3}}
	at := func(pos grid.Vec) { // at 100 m/s: the world refuses a sync faster than world.MaxSpeed
		d := time.Second
		if from, ok := p.Position(); ok {
			d = max(d, time.Duration(math.Sqrt(float64(grid.Dist2(from, pos)))*10)*time.Millisecond)
		}
		f.advance(d)
		f.sync(p, c, pos, p.Health(), 1)
	}
	cpAt := func() grid.Vec {
		own := p.Checkpoints()
		if len(own) != 1 {
			t.Fatalf("the player has %d checkpoints, want 1", len(own))
		}
		return f.w.Checkpoint(own[0]).Params().Pos
	}
	at(grid.Vec{X: 2000, Y: -1500, Z: 60}) // where /go landed them
	c.take()
	for i, pos := range race {
		if got := cpAt(); got != pos {
			t.Fatalf("race checkpoint %d at %v, want %v", i+1, got, pos)
		}
		at(pos)
	}
	if got := cpAt(); got != race[0] {
		t.Fatalf("after the finish the checkpoint is at %v, want the start %v", got, race[0])
	}
	finished, record := false, false
	for _, m := range only[*wire.ChatMessage](c.take()) {
		finished = finished || strings.Contains(m.Text.String(), "You finished the Grove Street race")
		record = record || strings.Contains(m.Text.String(), "set the Grove Street race record")
	}
	if !finished || !record {
		t.Errorf("first finish: told its time %v, a record announced %v; want both", finished, record)
	}
	// A second lap no faster: the finisher hears its time, nobody a record.
	for _, pos := range race {
		at(pos)
	}
	finished, record = false, false
	for _, m := range only[*wire.ChatMessage](c.take()) {
		finished = finished || strings.Contains(m.Text.String(), "You finished the Grove Street race")
		record = record || strings.Contains(m.Text.String(), "set the Grove Street race record")
	}
	if !finished || record {
		t.Errorf("second finish, no faster: told its time %v, a record announced %v; want true, false", finished, record)
	}

	// The garage opens while the player stands at its door.
	at(grid.Vec{X: 2505.5, Y: -1694.5, Z: 13.5})
	if g := only[*wire.GarageDoors](c.take()); len(g) != 1 || g[0].Open&(1<<9) == 0 {
		t.Fatalf("at the garage door: %v, want garage 9 open", g)
	}
	at(grid.Vec{X: 2495.3, Y: -1687.5, Z: 13.5})
	if g := only[*wire.GarageDoors](c.take()); len(g) != 1 || g[0].Open&(1<<9) != 0 {
		t.Fatalf("away from the garage door: %v, want garage 9 closed", g)
	}

	// The jetty goes back and forth (object 1; the barrel is 2).
	if o := f.w.Object(1); o == nil || o.Model() != 3406 || f.w.Object(2).Model() != 1225 {
		t.Fatal("objects 1 and 2 are not the jetty and the barrel")
	}
	var ys []float32 // every second for 40 s: -1640 → -1610 in 8 s, and back
	for range 40 {
		f.advance(time.Second)
		pos, _, _ := f.w.WorldPose(1)
		ys = append(ys, pos.Y)
	}
	turns := 0
	for i := 2; i < len(ys); i++ {
		if (ys[i]-ys[i-1])*(ys[i-1]-ys[i-2]) < 0 {
			turns++
		}
	}
	if lo, hi := slices.Min(ys), slices.Max(ys); turns < 3 || lo < -1640 || lo > -1636 || hi > -1610 || hi < -1614 || !f.w.Object(1).Moving() {
		t.Errorf("the jetty did not go back and forth between y -1640 and -1610: %v", ys)
	}

	// /boom next to the barrel breaks it; it is back 30 s later.
	at(grid.Vec{X: 2235, Y: -1722, Z: 13.5})
	c.take()
	f.chat(p, "/boom")
	out := c.take()
	if e := only[*wire.CreateExplosion](out); len(e) != 1 || e[0].X != 2240 || !f.w.Object(2).Broken() {
		t.Fatalf("/boom at the barrel: %v, broken %v", out, f.w.Object(2).Broken())
	}
	f.advance(31 * time.Second)
	if f.w.Object(2).Broken() {
		t.Error("the barrel is still broken 31 s later")
	}
}

// noErrorsAfterClose fails when the log holds a script error (the VM is
// closed: its counter is gone).
func (f *fixture) noErrorsAfterClose() {
	f.t.Helper()
	if strings.Contains(f.logs.String(), "level=ERROR") {
		f.t.Fatalf("script errors:\n%s", f.logs)
	}
}
