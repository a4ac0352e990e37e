package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"time"

	"dlmp/client"
	"dlmp/client/mirror"
	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/server"
	"dlmp/internal/world"
)

// The test world: a spawn point, a health pickup that respawns, a static
// pickup.
var (
	spawnAt    = grid.Vec{X: 0, Y: 0, Z: 3}
	healthAt   = grid.Vec{X: 10, Y: 0, Z: 3}
	staticAt   = grid.Vec{X: -10, Y: 0, Z: 3}
	healthRise = 2 * time.Second
)

// mode is the test gamemode. Its fields belong to the world goroutine: read
// them through env.do.
type mode struct {
	world.Base
	w            *world.World
	health       uint32 // pickup ids
	static       uint32
	interactions []world.PickupInteraction
	waypoints    []world.Waypoint
	crossings    []string // "enter 7", "leave 7"
}

func (m *mode) CheckpointEnter(p *world.Player, id uint32) {
	m.crossings = append(m.crossings, fmt.Sprintf("enter %d", id))
}

func (m *mode) CheckpointLeave(p *world.Player, id uint32) {
	m.crossings = append(m.crossings, fmt.Sprintf("leave %d", id))
}

func (m *mode) PlayerJoin(p *world.Player) {
	m.w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: spawnAt}, Health: 50})
}

// PickupInteract: the spec's collectible flow. A health pickup is refused
// while the player's last known health is full, collected otherwise.
func (m *mode) PickupInteract(e world.PickupInteraction) {
	m.interactions = append(m.interactions, e)
	if e.Behavior == world.Collectible && e.Player.Health() < 100 {
		m.w.CollectPickup(e.Pickup)
		m.w.GiveHealth(e.Player, 100-e.Player.Health())
	}
}

func (m *mode) PlayerWaypoint(p *world.Player, wp world.Waypoint) {
	m.waypoints = append(m.waypoints, wp)
}

// env is one running server.
type env struct {
	t    *testing.T
	srv  *server.Server
	mode *mode
	addr string // where clients connect: the server, or the lossy relay
}

type option func(*config.Config)

func start(t *testing.T, lossy bool, opts ...option) *env {
	t.Helper()
	cfg := config.Default()
	cfg.Server.Listen = "127.0.0.1:0"
	cfg.Admin.Listen = ""
	for _, o := range opts {
		o(&cfg)
	}
	m := &mode{}
	srv, err := server.New(server.Options{Config: cfg, Log: slog.New(slog.DiscardHandler), Gamemode: func(w *world.World) (world.Gamemode, error) {
		m.w = w
		var err error
		if m.health, err = w.CreatePickup(world.PickupParams{Model: 1240, Pos: healthAt, Respawn: healthRise}); err != nil {
			return nil, err
		}
		if m.static, err = w.CreatePickup(world.PickupParams{Model: 1239, Pos: staticAt, Behavior: world.Static}); err != nil {
			return nil, err
		}
		return m, nil
	}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	e := &env{t: t, srv: srv, mode: m, addr: srv.Addr()}
	if lossy {
		e.addr = relay(t, srv.Addr(), 0.10)
	}
	return e
}

// do runs f on the world goroutine.
func (e *env) do(f func(w *world.World, m *mode)) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := e.srv.Do(ctx, func(w *world.World) { f(w, e.mode) }); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) dial() *client.Client {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Dial(ctx, client.Config{Server: e.addr})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	return c
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// view reads the client's mirror.
func view[T any](c *client.Client, f func(m *mirror.Mirror) T) T {
	var v T
	c.World(func(m *mirror.Mirror) { v = f(m) })
	return v
}

// walkTo puts the client at pos (after its spawn) with the given health.
func walkTo(t *testing.T, c *client.Client, pos grid.Vec, health uint8) {
	t.Helper()
	eventually(t, "the client spawns", 10*time.Second, func() bool {
		return view(c, func(m *mirror.Mirror) bool { return m.Local().Spawned })
	})
	if err := c.SetSync(syncAt(pos, health)); err != nil {
		t.Fatal(err)
	}
}

// relay forwards datagrams between clients and the server over real UDP,
// dropping each with probability loss (seeded, so runs repeat). It returns
// the address clients dial.
func relay(t *testing.T, server string, loss float64) string {
	t.Helper()
	front, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	srvAddr, _ := net.ResolveUDPAddr("udp4", server)
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2))
	drop := func() bool { mu.Lock(); defer mu.Unlock(); return rng.Float64() < loss }
	backs := map[string]*net.UDPConn{} // one back socket per client address
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		buf := make([]byte, 2048)
		for {
			n, from, err := front.ReadFromUDP(buf)
			if err != nil {
				return
			}
			mu.Lock()
			back := backs[from.String()]
			if back == nil {
				back, _ = net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
				backs[from.String()] = back
				wg.Add(1)
				go func(back *net.UDPConn, client *net.UDPAddr) { // server → client
					defer wg.Done()
					b := make([]byte, 2048)
					for {
						n, _, err := back.ReadFromUDP(b)
						if err != nil {
							return
						}
						if !drop() {
							front.WriteToUDP(b[:n], client)
						}
					}
				}(back, from)
			}
			mu.Unlock()
			if !drop() {
				back.WriteToUDP(buf[:n], srvAddr)
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		front.Close()
		mu.Lock()
		for _, b := range backs {
			b.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return front.LocalAddr().String()
}
