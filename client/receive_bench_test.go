package client

import (
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"dlmp/client/mirror"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// benchClient is a Client with no socket, its loop state only, for the
// benchmarks (loopClient without a testing.T's socket).
func benchClient(now time.Time) *Client {
	c := &Client{
		cfg:   Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
		hello: wire.ServerHello{PlayerID: 3, SessionToken: 0xABCD, SyncHz: 20, TimeoutMs: 10000, KeepaliveMs: 500},
		gbn:   lane.NewGBNSender(lane.GBNConfig{}),
		done:  make(chan struct{}),
	}
	c.recv = lane.NewReceiver(c.hello.SessionToken, 0)
	c.world = mirror.New(&c.hello, now)
	c.initNetvars()
	c.expect = 1
	c.lastSent, c.lastHeard = now, now
	return c
}

// crowdTraffic builds what one client of the load run receives in one
// server tick: a datagram of PlayerMoves of the players shown to it, and a
// datagram of reliable events in which one player and its name label leave
// the view and another enters (the crowd's churn). Each call is the next
// tick: moves' seqs and event ids go on.
type crowdTraffic struct {
	shown   int    // players shown, ids 100..100+shown
	tick    uint32 // ticks built
	event   uint32 // next event_id
	moves   []byte
	events  []byte
	entered int // the player that enters next, cycling over ids 100+shown..
	names   map[uint16][2]string
}

func newCrowdTraffic(shown int) *crowdTraffic {
	g := &crowdTraffic{shown: shown, event: 1, names: map[uint16][2]string{}}
	for i := range shown {
		id := uint16(100 + i)
		g.names[id] = [2]string{fmt.Sprintf("bot_%04d", id), fmt.Sprintf("bot_%04d (%d)", id, id)}
	}
	return g
}

// show returns the events that show player id with its name label.
func (g *crowdTraffic) show(d []byte, id uint16, active uint8) []byte {
	ps := wire.PlayerShow{EventID: g.event, PlayerID: id, Active: active, Skin: 7, Color: 0xFF00FF}
	copy(ps.PlayerName[:], g.names[id][0])
	g.event++
	d = ps.Append(d)
	l := wire.Label3D{EventID: g.event, LabelID: uint32(id), Active: active, Color: 0xFFFFFF, DrawDistance: 30,
		AttachKind: wire.AttachPlayer, AttachID: uint32(id)}
	if err := l.SetText(g.names[id][1]); err != nil {
		panic(err)
	}
	g.event++
	return l.Append(d)
}

// join returns the datagrams that first show the players.
func (g *crowdTraffic) join() [][]byte {
	var out [][]byte
	var d []byte
	for i := range g.shown {
		d = g.show(d, uint16(100+i), 1)
		if len(d) > wire.MaxDatagram-400 {
			out, d = append(out, d), nil
		}
	}
	return append(out, d)
}

// next returns the next tick's datagrams of moves, n of 24 moves each (in
// one slice, cut in moveDatagram), and of events (valid until the next
// call).
func (g *crowdTraffic) next(n int) (moves, events []byte) {
	g.tick++
	g.moves = g.moves[:0]
	for i := range min(g.shown, 24*n) { // ~24 moves a datagram
		id := uint16(100 + (int(g.tick)*24*n+i)%g.shown)
		m := wire.PlayerMove{Seq: g.tick, PlayerID: id, State: wire.StateOnFoot, X: float32(i), Y: float32(g.tick % 1000), Z: 5,
			Heading: 90, Health: 100}
		g.moves = m.Append(g.moves)
	}
	g.events = g.events[:0]
	if g.tick%2 == 0 { // churn every other tick
		leave := uint16(100 + g.entered%g.shown)
		g.events = g.show(g.events, leave, 0)
		g.events = g.show(g.events, leave, 1)
		g.entered++
	}
	return g.moves, g.events
}

// moveDatagram is the size of a datagram of 24 PlayerMoves.
const moveDatagram = 24 * wire.PlayerMoveLen

// BenchmarkReceiveCrowd is what one bot of the load run spends per server
// tick on its datagrams once read: the moves' datagram and the churn's
// events, through the lane, the decoder and the mirror, then one client
// tick (ack, sync). One op is one tick of one client; "clients=1000" takes
// the clients in turn, as the bot process does, each one's state cold.
// "moves=96" is closer to issue 7's load run (a bot receives ~80 moves a
// tick): four datagrams of 24.
func BenchmarkReceiveCrowd(b *testing.B) {
	for _, bc := range []struct{ clients, datagrams int }{{1, 1}, {1000, 1}, {1000, 4}} {
		n := bc.clients
		name := fmt.Sprintf("clients=%d", n)
		if bc.datagrams > 1 {
			name += fmt.Sprintf(",moves=%d", 24*bc.datagrams)
		}
		b.Run(name, func(b *testing.B) {
			now := time.Unix(1_700_000_000, 0)
			cs := make([]*Client, n)
			gs := make([]*crowdTraffic, n)
			for i := range cs {
				cs[i], gs[i] = benchClient(now), newCrowdTraffic(100)
				c := cs[i]
				for _, d := range gs[i].join() {
					c.receiveLocked(d, now)
				}
				c.hasSync, c.synced = true, true
				c.sync = wire.PlayerSync{State: wire.StateOnFoot, Health: 100}
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if i == 0 {
					now = now.Add(50 * time.Millisecond)
				}
				c, g := cs[i], gs[i]
				moves, events := g.next(bc.datagrams)
				for len(moves) > 0 {
					d := moves[:min(len(moves), moveDatagram)]
					moves = moves[len(d):]
					c.receiveLocked(d, now)
				}
				if len(events) > 0 {
					c.receiveLocked(events, now)
				}
				c.tickLocked(now)
				c.out = c.out[:0]
				i = (i + 1) % n
			}
			for _, c := range cs {
				if c.stats.Invalid != 0 || c.stats.Unknown != 0 || c.stats.Lost != 0 || c.err != nil {
					b.Fatalf("got %d invalid, %d unknown, %d lost, err %v; want none", c.stats.Invalid, c.stats.Unknown, c.stats.Lost, c.err)
				}
				if got := len(c.world.Players()); got != 100 {
					b.Fatalf("got %d players shown, want 100", got)
				}
			}
		})
	}
}
