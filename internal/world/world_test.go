package world

import (
	"errors"
	"slices"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

func TestJoinIDsAndServerFull(t *testing.T) {
	f := newFixture(t, func(c *config.Config) { c.Server.MaxPlayers = 2 })
	a, _ := f.join()
	b, _ := f.join()
	if a.ID() != 0 || b.ID() != 1 {
		t.Fatalf("got ids %d, %d, want 0, 1", a.ID(), b.ID())
	}
	var hello wire.ServerHello
	if _, ok := f.w.Join(newConn(t), &hello); ok {
		t.Fatal("third Join on 2 slots: got ok, want server full")
	}
	f.w.Leave(a, wire.ReasonQuit)
	c, _ := f.join()
	if c.ID() != 0 {
		t.Fatalf("got id %d after a leave, want the freed 0", c.ID())
	}
	if f.w.Players() != 2 {
		t.Fatalf("got %d players, want 2", f.w.Players())
	}
	if want := []string{"join", "join", "leave", "join"}; !slices.Equal(f.gm.log, want) {
		t.Fatalf("got events %v, want %v", f.gm.log, want)
	}
	// A packet for a player who left does nothing.
	f.w.Packet(a, &wire.PickupTouch{PickupID: 1}, f.now)
	if n := f.w.Stats().TouchRefused[TouchNotAlive]; n != 0 {
		t.Fatalf("a left player's touch was handled (%d refusals)", n)
	}
}

func TestSpawnDeathRespawnCycle(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	if err := f.w.Respawn(p, Landing{}); !errors.Is(err, ErrState) {
		t.Fatalf("respawn before spawn: got %v, want ErrState", err)
	}
	spawnAt := grid.Vec{X: 10, Y: 20, Z: 3}
	if err := f.w.Spawn(p, SpawnParams{Landing: Landing{Pos: spawnAt, Heading: 90}, Skin: 7, Health: 80, Armour: 5}); err != nil {
		t.Fatal(err)
	}
	out := c.take()
	sp := only[*wire.SpawnPlayer](out)
	if len(sp) != 1 || out[0].class != lane.Critical || sp[0].Skin != 7 || sp[0].X != 10 {
		t.Fatalf("got %+v, want one critical SpawnPlayer with skin 7 at x 10", out)
	}
	if p.Life() != Alive {
		t.Fatalf("got %v after spawn, want alive", p.Life())
	}
	f.sync(p, c, spawnAt, 1)
	if err := f.w.Respawn(p, Landing{}); !errors.Is(err, ErrState) {
		t.Fatalf("respawn while alive: got %v, want ErrState", err)
	}
	f.now = f.now.Add(50 * time.Millisecond)
	f.sync(p, c, spawnAt, 4)
	f.now = f.now.Add(50 * time.Millisecond)
	f.sync(p, c, spawnAt, 4) // still dead: one death event per life
	if p.Life() != Dead {
		t.Fatalf("got %v after a dead sync, want dead", p.Life())
	}
	if err := f.w.Teleport(p, Landing{Pos: spawnAt}); !errors.Is(err, ErrState) {
		t.Fatalf("teleport of a dead player: got %v, want ErrState", err)
	}
	if err := f.w.GiveHealth(p, 10); !errors.Is(err, ErrState) {
		t.Fatalf("grant to a dead player: got %v, want ErrState", err)
	}
	if err := f.w.Respawn(p, Landing{Pos: grid.Vec{X: 100, Y: 100, Z: 5}, Interior: 3, World: 7}); err != nil {
		t.Fatal(err)
	}
	rp := only[*wire.RespawnPlayer](c.take())
	if len(rp) != 1 || rp[0].Interior != 3 || rp[0].World != 7 {
		t.Fatalf("got %+v, want one RespawnPlayer into interior 3, world 7", rp)
	}
	if p.Life() != Alive || p.Health() != 100 || p.Armour() != 0 || (p.Scope() != grid.Scope{World: 7, Interior: 3}) {
		t.Fatalf("after respawn: %v health %d armour %d scope %+v", p.Life(), p.Health(), p.Armour(), p.Scope())
	}
	if want := []string{"join", "spawn", "death", "spawn"}; !slices.Equal(f.gm.log, want) {
		t.Fatalf("got events %v, want %v", f.gm.log, want)
	}
}

func TestSpawnArgumentsUseWireRules(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	err := f.w.Spawn(p, SpawnParams{Skin: 74, Health: 100})
	wantArgErr(t, err, "spawn", "params")
	var we *wire.Error
	if !errors.As(err, &we) || we.Field != "skin" {
		t.Fatalf("got %v, want the SpawnPlayer.skin rule", err)
	}
	if len(c.out) != 0 || p.Life() != NotSpawned {
		t.Fatalf("a refused spawn sent %d packets, life %v", len(c.out), p.Life())
	}
	f.spawn(p, c, grid.Vec{})
	wantArgErr(t, f.w.SetSkin(p, 312), "set_skin", "skin")
	wantArgErr(t, f.w.SetWanted(p, 7), "set_wanted", "level")
	wantArgErr(t, f.w.GiveWeapon(p, 20, 1), "give_weapon", "weapon")
	wantArgErr(t, f.w.GiveArmor(p, 0), "give_armor", "amount")
	wantArgErr(t, f.w.Teleport(p, Landing{Pos: grid.Vec{X: 7000}}), "teleport", "landing")
	if len(c.out) != 0 {
		t.Fatalf("refused commands sent %d packets", len(c.out))
	}
	if err := f.w.SetSkin(p, 311); err != nil || p.Skin() != 311 {
		t.Fatalf("SetSkin(311): %v, skin %d", err, p.Skin())
	}
	if err := f.w.SetWanted(p, 6); err != nil || p.Wanted() != 6 {
		t.Fatalf("SetWanted(6): %v, wanted %d", err, p.Wanted())
	}
	if err := f.w.GiveWeapon(p, 31, 500); err != nil {
		t.Fatal(err)
	}
	out := c.take()
	if len(out) != 3 {
		t.Fatalf("got %d packets, want SetSkin, SetWanted, GiveWeapon", len(out))
	}
	for _, s := range out {
		if s.class != lane.Critical {
			t.Errorf("%s sent %v, want critical", s.pkt.Name(), s.class)
		}
	}
}

func TestSyncAcceptance(t *testing.T) {
	at := grid.Vec{X: 100, Y: 100, Z: 10}
	tests := []struct {
		name   string
		after  time.Duration // since the last accepted sync
		pos    grid.Vec
		mod    func(*wire.PlayerSync)
		reason SyncDrop
		accept bool
	}{
		{"walk", 50 * time.Millisecond, grid.Vec{X: 101, Y: 100, Z: 10}, nil, 0, true},
		{"out of world bounds", 50 * time.Millisecond, grid.Vec{X: 6001, Y: 100, Z: 10}, nil, SyncBounds, false},
		{"below world", 50 * time.Millisecond, grid.Vec{X: 100, Y: 100, Z: -201}, nil, SyncBounds, false},
		{"other interior", 50 * time.Millisecond, at, func(s *wire.PlayerSync) { s.Interior = 1 }, SyncScope, false},
		{"other world", 50 * time.Millisecond, at, func(s *wire.PlayerSync) { s.World = 2 }, SyncScope, false},
		// 50 ms at 200 m/s is 10 m, plus 5 m of slack.
		{"just within the speed limit", 50 * time.Millisecond, grid.Vec{X: 114.9, Y: 100, Z: 10}, nil, 0, true},
		{"too fast", 50 * time.Millisecond, grid.Vec{X: 115.5, Y: 100, Z: 10}, nil, SyncSpeed, false},
		{"far but after long enough", 2 * time.Second, grid.Vec{X: 400, Y: 100, Z: 10}, nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			p, c := f.join()
			f.spawn(p, c, at)
			f.now = f.now.Add(tt.after)
			f.syncWith(p, c, tt.pos, func(s *wire.PlayerSync) {
				if tt.mod != nil {
					tt.mod(s)
				}
			})
			got, _ := p.Position()
			if tt.accept {
				if got != tt.pos {
					t.Fatalf("got position %+v, want the sync's %+v", got, tt.pos)
				}
				return
			}
			if got != at {
				t.Fatalf("got position %+v, want %+v kept", got, at)
			}
			if n := f.w.Stats().SyncDropped[tt.reason]; n != 1 {
				t.Fatalf("got %d drops of reason %d, want 1", n, tt.reason)
			}
		})
	}
}

func TestSyncFromBeforeLandingIsDropped(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	home := grid.Vec{X: 0, Y: 0, Z: 3}
	f.spawn(p, c, home)
	far := grid.Vec{X: 3000, Y: 3000, Z: 10}
	if err := f.w.Teleport(p, Landing{Pos: far}); err != nil {
		t.Fatal(err)
	}
	// A frame sampled before the client applied the teleport.
	f.now = f.now.Add(50 * time.Millisecond)
	f.syncWith(p, c, home, func(s *wire.PlayerSync) { s.Landed = c.landing - 1 })
	if got, _ := p.Position(); got != far {
		t.Fatalf("got %+v, want the landing point kept", got)
	}
	// Two teleports in flight: a frame after the first only is stale.
	second := grid.Vec{X: -3000, Y: 0, Z: 10}
	firstID := c.landing
	if err := f.w.Teleport(p, Landing{Pos: second}); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(50 * time.Millisecond)
	f.syncWith(p, c, far, func(s *wire.PlayerSync) { s.Landed = firstID })
	if n := f.w.Stats().SyncDropped[SyncStaleLanding]; n != 2 {
		t.Fatalf("got %d stale-landing drops, want 2", n)
	}
	f.sync(p, c, grid.Vec{X: -3000, Y: 0, Z: 9}, 1)
	if got, _ := p.Position(); got.X != -3000 || got.Z != 9 {
		t.Fatalf("got %+v, want the confirming sync accepted", got)
	}
}

func TestExplosionGoesToPlayersNearInScope(t *testing.T) {
	f := newFixture(t, nil)
	near, cn := f.join()
	far, cf := f.join()
	other, co := f.join()
	f.spawn(near, cn, grid.Vec{X: 10})
	f.spawn(far, cf, grid.Vec{X: 1000})
	f.spawnIn(other, co, grid.Vec{X: 10}, grid.Scope{World: 1})
	if err := f.w.CreateExplosion(grid.Scope{}, grid.Vec{}, 2, 5); err != nil {
		t.Fatal(err)
	}
	if out := cn.take(); len(out) != 1 || out[0].class != lane.Droppable {
		t.Fatalf("near player got %+v, want one droppable CreateExplosion", out)
	}
	if len(cf.take())+len(co.take()) != 0 {
		t.Fatal("a far player or one in another scope got the explosion")
	}
	wantArgErr(t, f.w.CreateExplosion(grid.Scope{}, grid.Vec{}, 13, 5), "create_explosion", "params")
}

func TestFailedCriticalSendStopsSending(t *testing.T) {
	f := newFixture(t, nil)
	p, c := f.join()
	f.spawn(p, c, grid.Vec{})
	c.free = 0
	if err := f.w.SetWanted(p, 1); err != nil {
		t.Fatal(err)
	}
	c.free = 100
	if err := f.w.SetWanted(p, 2); err != nil {
		t.Fatal(err)
	}
	if len(c.out) != 0 || f.w.Stats().SendFailed != 1 {
		t.Fatalf("after a failed critical send got %d packets, %d failures; want 0, 1", len(c.out), f.w.Stats().SendFailed)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*config.Config)
	}{
		{"max_players 0", func(c *config.Config) { c.Server.MaxPlayers = 0 }},
		{"max_players 1001", func(c *config.Config) { c.Server.MaxPlayers = 1001 }},
		{"draw distance", func(c *config.Config) { c.World.PickupDrawDistance = 0.5 }},
		{"clock mode", func(c *config.Config) { c.Clock.Mode = "fast" }},
		{"hours", func(c *config.Config) { c.Clock.Hours = 24 }},
		{"minute_ms", func(c *config.Config) { c.Clock.Mode, c.Clock.MinuteMs = "running", 9 }},
		{"utc offset", func(c *config.Config) { c.Clock.Mode, c.Clock.UTCOffsetM = "real", -721 }},
		{"weather", func(c *config.Config) { c.Clock.Weather = 23 }},
		{"negative weather", func(c *config.Config) { c.Clock.Weather = -1 }},
	}
	for _, tt := range tests {
		c := config.Default()
		tt.mod(&c)
		if _, err := New(c, nil, t0); err == nil {
			t.Errorf("%s: got no error", tt.name)
		}
	}
	if _, err := New(config.Default(), nil, t0); err != nil {
		t.Fatalf("default config: %v", err)
	}
}
