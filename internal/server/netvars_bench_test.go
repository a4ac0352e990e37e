package server

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"dlmp/internal/config"
	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/netvar"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// countConn is a world.Conn that counts what is queued to it.
type countConn struct{ msgs, bytes int }

func (c *countConn) Send(msg []byte, _ lane.Class) error { c.msgs++; c.bytes += len(msg); return nil }
func (c *countConn) SendUnreliable([]byte)               {}
func (c *countConn) Free() int                           { return 1 << 20 }
func (c *countConn) Kick(uint8)                          {}
func (c *countConn) Progress() (uint64, uint64)          { return uint64(c.msgs), uint64(c.msgs) }

// benchWorld is a real world with n players spawned uniformly over a
// side × side square, all joined to the netvar glue over reg, every
// handshake complete.
func benchWorld(b *testing.B, n int, side float32, reg *netvar.Registry) (*netvars, []*countConn) {
	b.Helper()
	c := config.Default()
	w, err := world.New(c, nil, time.Unix(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	nv, err := newNetvars(reg, w, c.Netvar)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	conns := make([]*countConn, n)
	for i := range n {
		conns[i] = &countConn{}
		var hello wire.ServerHello
		p, ok := w.Join(conns[i], &hello)
		if !ok {
			b.Fatal("world full")
		}
		pos := grid.Vec{X: rng.Float32() * side, Y: rng.Float32() * side, Z: 10}
		if err := w.Spawn(p, world.SpawnParams{Landing: world.Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
			b.Fatal(err)
		}
		nv.join(conns[i], p)
		nv.store.Handshake(netvar.PlayerID(p.ID()))
	}
	for _, cc := range conns {
		*cc = countConn{}
	}
	return nv, conns
}

// BenchmarkPVSSet is one Set of a SendPVS player var with 1000 players on
// a 2 km square: the distance PVS (the glue's stand-in until the world
// streams players) against Broadcast of the same var to all 1000.
func BenchmarkPVSSet(b *testing.B) {
	for _, mode := range []string{"pvs", "broadcast"} {
		b.Run(mode, func(b *testing.B) {
			reg := netvar.NewRegistry()
			v := reg.Register("health").SetPlayer().UByte()
			if mode == "pvs" {
				v.SendPVS()
			}
			nv, conns := benchWorld(b, 1000, 2000, reg)
			now := time.Unix(1, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				nv.store.Set(now, netvar.PlayerRef(uint16(i%1000)), "health", float64(i%256))
			}
			sent := 0
			for _, c := range conns {
				sent += c.msgs
			}
			b.ReportMetric(float64(sent)/float64(i), "recipients/op")
		})
	}
}

// BenchmarkBootstrap is the join bootstrap of 10,000 vehicles × 5 vars
// to joiners under the default rate limits (32 entities per tick
// server-wide, 8 per player): ticks until the queues drain, and the
// bytes framed onto the reliable lanes. The baseline lifts the rate
// limits to show what they cost in ticks and save in burst size.
func BenchmarkBootstrap(b *testing.B) {
	for _, joiners := range []int{1, 8} {
		for _, limited := range []bool{true, false} {
			name := fmt.Sprintf("joiners=%d/limited=%v", joiners, limited)
			b.Run(name, func(b *testing.B) {
				var ticks, bytes, msgs, maxTick int
				b.ReportAllocs()
				for b.Loop() {
					ticks, bytes, msgs, maxTick = bootstrapOnce(b, joiners, limited)
				}
				b.ReportMetric(float64(ticks), "ticks")
				b.ReportMetric(float64(bytes), "bytes")
				b.ReportMetric(float64(msgs), "msgs")
				b.ReportMetric(float64(maxTick), "max-bytes/tick")
			})
		}
	}
}

func bootstrapOnce(b *testing.B, joiners int, limited bool) (ticks, bytes, msgs, maxTick int) {
	b.StopTimer()
	reg := netvar.NewRegistry()
	reg.Register("locked").SetVehicle().Bool()
	reg.Register("fuel").SetVehicle().UByte()
	reg.Register("owner").SetVehicle().String(24)
	reg.Register("color").SetVehicle().Color()
	reg.Register("odometer").SetVehicle().Float()
	c := config.Default()
	if !limited {
		c.Netvar.ResyncRate, c.Netvar.ResyncRatePlayer = 100000, 100000
	}
	w, err := world.New(c, nil, time.Unix(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	nv, err := newNetvars(reg, w, c.Netvar)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Unix(1, 0)
	for id := range 10000 {
		ent := netvar.Ref{Kind: netvar.KindVehicle, ID: uint16(id)}
		nv.store.Set(now, ent, "locked", id%2 == 0)
		nv.store.Set(now, ent, "fuel", float64(id%100))
		nv.store.Set(now, ent, "owner", fmt.Sprintf("owner_%d", id))
		nv.store.Set(now, ent, "color", netvar.Color{R: uint8(id), G: 2, B: 3, A: 255})
		nv.store.Set(now, ent, "odometer", float64(id)*1.5)
	}
	conns := make([]*countConn, joiners)
	for i := range conns {
		conns[i] = &countConn{}
		var hello wire.ServerHello
		p, _ := w.Join(conns[i], &hello)
		nv.join(conns[i], p)
	}
	b.StartTimer()
	for i := range conns {
		nv.store.Handshake(netvar.PlayerID(i))
	}
	total := func() (n, m int) {
		for _, c := range conns {
			n += c.bytes
			m += c.msgs
		}
		return
	}
	// Every queued entity has values, so a tick that sends nothing
	// means the queues are empty; it is not counted.
	for {
		before, _ := total()
		nv.tick(now)
		after, _ := total()
		if after == before {
			break
		}
		ticks++
		maxTick = max(maxTick, after-before)
		now = now.Add(50 * time.Millisecond)
	}
	bytes, msgs = total()
	return
}
