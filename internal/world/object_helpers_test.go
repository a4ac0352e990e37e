package world

import (
	"testing"

	"dlmp/internal/grid"
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Progress reports every queued event and those acked with ackAll.
func (c *testConn) Progress() (queued, acked uint64) { return uint64(c.events), uint64(c.acked) }

func (r *recorder) ObjectMoveEnd(id uint32) { r.moveEnds = append(r.moveEnds, id) }

// ackAll acknowledges every event queued so far and gives the slots back.
func (c *testConn) ackAll() {
	c.free += int(c.events - c.acked)
	c.acked = c.events
}

// entConn is a testConn that also decodes and records its unreliable
// packets (PlayerMove, VehicleMove) with the client's rules.
type entConn struct {
	*testConn
	moves []wire.Packet
}

func (c *entConn) SendUnreliable(msg []byte) {
	c.t.Helper()
	c.unreliable++
	pkt, err := wire.Unmarshal(msg)
	if err != nil {
		c.t.Fatalf("sent an unreliable packet the client drops: %v", err)
	}
	c.moves = append(c.moves, pkt)
}

// takeMoves returns the unreliable packets since the last call.
func (c *entConn) takeMoves() []wire.Packet {
	m := c.moves
	c.moves = nil
	return m
}

// joinE joins a player whose conn records unreliable packets.
func (f *fixture) joinE() (*Player, *entConn) {
	f.t.Helper()
	c := &entConn{testConn: newConn(f.t)}
	var hello wire.ServerHello
	p, ok := f.w.Join(c, &hello)
	if !ok {
		f.t.Fatal("Join: server full")
	}
	return p, c
}

// objectOps splits the ObjectStates of ss into shows and hides (by id),
// checking each is critical and passes the send rules (sendObjectOps
// encodes them without the check: decision 0343).
func objectOps(t *testing.T, ss []sent) (shows []*wire.ObjectState, hides []uint32) {
	t.Helper()
	for _, s := range ss {
		o, ok := s.pkt.(*wire.ObjectState)
		if !ok {
			continue
		}
		if s.class != lane.Critical {
			t.Errorf("ObjectState %d sent %v, want critical", o.ObjectID, s.class)
		}
		if err := o.CheckSend(); err != nil {
			t.Errorf("ObjectState %d sent: %v", o.ObjectID, err)
		}
		if o.Active == 1 {
			shows = append(shows, o)
		} else {
			hides = append(hides, o.ObjectID)
		}
	}
	return shows, hides
}

// showIDs lists the object ids of shows, in order.
func showIDs(shows []*wire.ObjectState) []uint32 {
	var ids []uint32
	for _, s := range shows {
		ids = append(ids, s.ObjectID)
	}
	return ids
}

// object creates an object or fails the test.
func (f *fixture) object(op ObjectParams) uint32 {
	f.t.Helper()
	if op.Model == 0 {
		op.Model = 1337
	}
	id, err := f.w.CreateObject(op)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// attach attaches or fails the test.
func (f *fixture) attach(id uint32, ap AttachParams) {
	f.t.Helper()
	if err := f.w.AttachObject(id, ap); err != nil {
		f.t.Fatal(err)
	}
}

// vehicle creates a vehicle or fails the test.
func (f *fixture) vehicle(vp VehicleParams) uint16 {
	f.t.Helper()
	if vp.Model == 0 {
		vp.Model = 411
	}
	id, err := f.w.CreateVehicle(vp)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// spawnAcked spawns p at pos where objects may stand: the client
// acknowledges what the spawn queued, the held SpawnPlayer goes on the next
// tick, and a sync confirms it. It returns everything sent meanwhile.
func (f *fixture) spawnAcked(p *Player, c *testConn, pos grid.Vec) []sent {
	f.t.Helper()
	if err := f.w.Spawn(p, SpawnParams{Landing: Landing{Pos: pos}, Skin: 1, Health: 100}); err != nil {
		f.t.Fatal(err)
	}
	c.ackAll()
	f.advance(0)
	if p.Life() != Alive {
		f.t.Fatal("the spawn is still held after the ack")
	}
	f.sync(p, c, pos, 1)
	return c.take()
}

// at is a point on the ground.
func at(x, y float32) grid.Vec { return grid.Vec{X: x, Y: y, Z: 10} }

// sameSet reports whether a and b hold the same ids, in any order.
func sameSet(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[uint32]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		if m[x]--; m[x] < 0 {
			return false
		}
	}
	return true
}

// pairShown joins two players, spawns a at (0, 0) and b 10 m away, runs a
// tick (each is then shown the other) and takes what a was sent.
func (f *fixture) pairShown() (a *Player, ac *entConn, b *Player, bc *entConn) {
	f.t.Helper()
	a, ac = f.joinE()
	b, bc = f.joinE()
	f.spawn(a, ac.testConn, at(0, 0))
	f.spawn(b, bc.testConn, at(10, 0))
	f.advance(tick)
	ac.take()
	return a, ac, b, bc
}
