package gamemode

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	"dlmp/internal/grid"
	"dlmp/internal/wire"
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

// noErrorsAfterClose fails when the log holds a script error (the VM is
// closed: its counter is gone).
func (f *fixture) noErrorsAfterClose() {
	f.t.Helper()
	if strings.Contains(f.logs.String(), "level=ERROR") {
		f.t.Fatalf("script errors:\n%s", f.logs)
	}
}
