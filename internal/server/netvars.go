package server

import (
	"time"

	"dlmp/internal/config"
	"dlmp/internal/lane"
	"dlmp/internal/netvar"
	"dlmp/internal/wire"
	"dlmp/internal/world"
)

// netvars ties the network-vars store to the world and the sessions: the
// client's NetvarSync, NetvarResyncRequest and NetvarClientSet go into the
// store before the world sees them, and the store's sends go out as
// NetvarManifest, NetvarResync and NetvarUpdate on the player's reliable
// lane, critical (the lane fragments what exceeds a datagram). Owned by the
// world goroutine.
type netvars struct {
	// Immutable after newNetvars.
	reg   *netvar.Registry
	store *netvar.Store
	world *world.World
	// pvs answers StreamedTo: pvsStreamed, the world's views; tests
	// replace it.
	pvs func(ent netvar.Ref) []netvar.PlayerID

	// Owned by the world goroutine.
	sess  map[netvar.PlayerID]world.Conn
	ids   []uint16            // scratch
	out   []netvar.PlayerID   // scratch
	buf   []byte              // encode scratch
	man   wire.NetvarManifest // encode scratch, one per message kind
	rsy   wire.NetvarResync
	upd   wire.NetvarUpdate
	stats netvarStats
}

// netvarStats counts what the glue dropped.
type netvarStats struct {
	RepeatAnnounces uint64 // NetvarSync after the manifest was sent: ignored
	BadRequests     uint64 // resync requests the store refused
	BadClientSets   uint64 // ClientSets the store refused (flooded, malformed, not client-owned)
	SendFailed      uint64 // a critical send found the queue full: the player is disconnected
}

// newNetvars seals reg (the gamemode has loaded: the Initialize hook) and
// builds the store over w with the netvar.* config keys.
func newNetvars(reg *netvar.Registry, w *world.World, c config.Netvar) (*netvars, error) {
	reg.Seal()
	nv := &netvars{reg: reg, world: w, sess: map[netvar.PlayerID]world.Conn{}}
	nv.pvs = nv.pvsStreamed
	st, err := netvar.NewStore(reg, worldView{nv}, nv.send, netvar.Config{
		ResyncRate:       c.ResyncRate,
		ResyncRatePlayer: c.ResyncRatePlayer,
		SyncBytes:        c.SyncBytes,
		ClientSetRate:    c.ClientSetRate,
	})
	if err != nil {
		return nil, err
	}
	nv.store = st
	return nv, nil
}

// join records the connection of a player the world admitted.
func (nv *netvars) join(sess world.Conn, p *world.Player) {
	nv.sess[netvar.PlayerID(p.ID())] = sess
}

// leave forgets a player: their queue, handshake and player entity's values.
func (nv *netvars) leave(p *world.Player) {
	id := netvar.PlayerID(p.ID())
	delete(nv.sess, id)
	nv.store.PlayerRemoved(id)
}

// packet handles the client's netvar packets and reports whether pkt was
// one. A repeated announce is ignored: the reliable lane delivers the
// manifest already sent (docs/protocol.md, NetvarSync).
func (nv *netvars) packet(p *world.Player, pkt wire.Packet, now time.Time) bool {
	id := netvar.PlayerID(p.ID())
	switch m := pkt.(type) {
	case *wire.NetvarSync:
		if nv.store.Ready(id) {
			nv.stats.RepeatAnnounces++
			return true
		}
		nv.store.Handshake(id)
	case *wire.NetvarResyncRequest:
		if nv.store.ResyncRequest(id, m.Payload) != nil {
			nv.stats.BadRequests++
		}
	case *wire.NetvarClientSet:
		if nv.store.ClientSet(now, id, m.Payload) != nil {
			nv.stats.BadClientSets++
		}
	default:
		return false
	}
	return true
}

// tick runs the store's time-driven work: debounce flushes and the resync
// drain.
func (nv *netvars) tick(now time.Time) { nv.store.Tick(now) }

// send is the store's SendFunc: one payload framed as its packet, queued
// critical on the player's reliable lane.
func (nv *netvars) send(to netvar.PlayerID, m netvar.Message, payload []byte) {
	sess := nv.sess[to]
	if sess == nil {
		return
	}
	var pkt wire.Packet
	switch m {
	case netvar.MsgSync:
		nv.man.Payload = payload
		pkt = &nv.man
	case netvar.MsgResync:
		nv.rsy.Payload = payload
		pkt = &nv.rsy
	case netvar.MsgUpdate:
		nv.upd.Payload = payload
		pkt = &nv.upd
	default:
		return
	}
	if err := pkt.CheckSend(); err != nil {
		// The store bounds every payload; this is a bug, not peer input.
		nv.reg.Logger().Error("netvar: payload breaks its send rule", "packet", pkt.Name(), "err", err)
		return
	}
	nv.buf = pkt.Append(nv.buf[:0])
	if sess.Send(nv.buf, lane.Critical) != nil {
		nv.stats.SendFailed++ // the transport disconnects the player and calls Leave
	}
}

// pvsStreamed is the PVS: the players the entity is currently streamed to
// (the world's player, vehicle and object views), and for a player entity
// the player themselves — a player is always shown to themselves.
func (nv *netvars) pvsStreamed(ent netvar.Ref) []netvar.PlayerID {
	out := nv.out[:0]
	var kind world.Kind
	switch ent.Kind {
	case netvar.KindPlayer:
		kind = world.KindPlayer
	case netvar.KindVehicle:
		kind = world.KindVehicle
	case netvar.KindObject:
		kind = world.KindObject
	default:
		return out
	}
	nv.ids = nv.world.AppendPlayerIDs(nv.ids[:0])
	for _, id := range nv.ids {
		if kind == world.KindPlayer && id == ent.ID || nv.world.StreamedTo(kind, uint32(ent.ID), nv.world.Player(id)) {
			out = append(out, netvar.PlayerID(id))
		}
	}
	nv.out = out
	return out
}

// worldView is the store's view of the world (netvar.World).
type worldView struct{ nv *netvars }

func (v worldView) Players() []netvar.PlayerID {
	v.nv.ids = v.nv.world.AppendPlayerIDs(v.nv.ids[:0])
	out := make([]netvar.PlayerID, 0, len(v.nv.ids))
	for _, id := range v.nv.ids {
		if v.nv.sess[netvar.PlayerID(id)] != nil {
			out = append(out, netvar.PlayerID(id))
		}
	}
	return out
}

func (v worldView) UserID(p netvar.PlayerID) uint32 {
	if pl := v.nv.world.Player(uint16(p)); pl != nil {
		return pl.UserID()
	}
	return 0
}

func (v worldView) StreamedTo(ent netvar.Ref) []netvar.PlayerID { return v.nv.pvs(ent) }

func (v worldView) Place(ent netvar.Ref) (netvar.Place, bool) {
	if ent.Kind != netvar.KindPlayer {
		return netvar.Place{}, false
	}
	p := v.nv.world.Player(ent.ID)
	if p == nil {
		return netvar.Place{}, false
	}
	pos, ok := p.Position()
	if !ok {
		return netvar.Place{}, false
	}
	sc := p.Scope()
	return netvar.Place{Pos: netvar.Vector{X: pos.X, Y: pos.Y, Z: pos.Z}, World: sc.World, Interior: int32(sc.Interior)}, true
}

// Netvars returns the network-vars store. It belongs to the world
// goroutine: use it from the gamemode or inside Do.
func (s *Server) Netvars() *netvar.Store { return s.nv.store }
