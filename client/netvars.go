package client

import (
	"bytes"
	"slices"
	"time"

	"dlmp/internal/netvar"
	"dlmp/internal/wire"
)

// Network vars on the client (network-vars.md; the decoding, the identity
// guard and the local sets are netvar.Mirror's). The client announces Sync
// every 3 s up to 20 times until the manifest arrives, asks for the vars of
// every player and vehicle the server shows it (one batched request per
// tick, asked again once after ResyncRetry without an answer), decodes
// Updates and Resyncs, and sends ClientSets on the Go-Back-N lane.
//
// Identity: the protocol's PlayerShow carries no UserID yet, so the client
// binds a shown player slot to the first UserID it reads for that slot in a
// netvar header that is not an earlier occupant's. That is sound because
// PlayerShow and the netvar messages travel in one ordered reliable lane:
// a header that arrives after the show and is not earlier than the slot's
// last occupant is the shown player's. Its own slot is bound the same way
// (no earlier occupant can be addressed on this connection).
// NetvarPlayerCreated binds a slot explicitly when the caller knows the
// UserID.

// ResyncRetry is how long a resync request waits for its answer before it
// is sent again (docs/protocol.md, NetvarResyncRequest), once.
const ResyncRetry = time.Second

// maxRequestRefs bounds one NetvarResyncRequest: 1 + 18 bits per entity
// within MaxNetvarRequestPayload bytes.
const maxRequestRefs = (wire.MaxNetvarRequestPayload*8 - 1) / (1 + netvar.KindBits + netvar.EntityIDBits)

// NetvarChange is one change of a var the client holds, as Config.OnNetvar
// receives it: Ent is the zero Ref for a Global; Predicted is true only for
// a local apply the server has not confirmed.
type NetvarChange struct {
	Ent                netvar.Ref
	Name               string
	NewValue, OldValue any
	Predicted          bool
}

// netvarState is the client's network-vars state, guarded by Client.mu.
type netvarState struct {
	m        *netvar.Mirror
	me       uint16
	attempts uint16 // Sync announces sent
	shown    map[uint16]bool
	bound    map[uint16]uint16 // slot → UserID bound to the shown player
	last     map[uint16]uint16 // slot → UserID of its last bound occupant
	want     []netvar.Ref      // to request, in order
	asked    map[netvar.Ref]requestState
	queue    []askedEntry // queue[head:]: the requests of asked in the order they were made, by due time
	head     int
	changes  []NetvarChange // for Config.OnNetvar, run unlocked
}

// askedEntry is one request in the order they were made. An entry whose
// ref is no longer in asked with the same state (answered, the entity
// gone, or asked again later) is dropped when it reaches the front: the
// tick looks at the due requests only, not at every one a crowd has
// pending.
type askedEntry struct {
	ref   netvar.Ref
	state requestState
}

type requestState struct {
	at      time.Time
	retried bool
}

// initNetvars builds the mirror once the handshake gave the player id.
func (c *Client) initNetvars() {
	reg := netvar.NewRegistry()
	reg.SetLogger(c.cfg.Log)
	if c.cfg.Netvars != nil {
		c.cfg.Netvars(reg)
	}
	nv := &c.nv
	nv.me = c.hello.PlayerID
	nv.shown = map[uint16]bool{nv.me: true}
	nv.bound, nv.last = map[uint16]uint16{}, map[uint16]uint16{}
	nv.asked = map[netvar.Ref]requestState{}
	nv.m = netvar.NewMirror(reg, netvar.PlayerID(nv.me), c.sendNetvar)
	nv.m.Hook = func(ent netvar.Ref, v *netvar.Var, newValue, oldValue any, predicted bool) {
		if c.cfg.OnNetvar != nil {
			nv.changes = append(nv.changes, NetvarChange{ent, v.Name(), newValue, oldValue, predicted})
		}
	}
}

// sendNetvar frames the mirror's client → server messages.
func (c *Client) sendNetvar(m netvar.Message, payload []byte) {
	tok := c.hello.SessionToken
	switch m {
	case netvar.MsgSync:
		c.nv.attempts++
		c.send((&wire.NetvarSync{Token: tok, Attempt: c.nv.attempts}).Append(nil), time.Now())
	case netvar.MsgResync:
		c.send((&wire.NetvarResyncRequest{Token: tok, Payload: payload}).Append(nil), time.Now())
	case netvar.MsgClientSet:
		c.gbn.Push((&wire.NetvarClientSet{Token: tok, Payload: payload}).Append(nil))
	}
}

// netvarTick sends the Sync announce that is due and this tick's batched
// resync request (new entities first, then the retries).
func (c *Client) netvarTick(now time.Time) {
	nv := &c.nv
	if nv.m.Schema() != nil {
		n := 0
		for _, ref := range nv.want {
			if n == maxRequestRefs {
				break
			}
			nv.m.RequestResync(ref)
			nv.ask(ref, requestState{at: now})
			n++
		}
		nv.want = append(nv.want[:0], nv.want[n:]...)
		for nv.head < len(nv.queue) && n < maxRequestRefs {
			e := nv.queue[nv.head]
			cur, ok := nv.asked[e.ref]
			live := ok && cur == e.state // else answered, gone, or asked again since
			if live && now.Sub(e.state.at) < ResyncRetry {
				break // the first pending request is not due: none after it is
			}
			nv.queue[nv.head] = askedEntry{}
			nv.head++
			switch {
			case !live:
			case e.state.retried:
				delete(nv.asked, e.ref) // asked twice: an entity with no vars has no answer
			default:
				nv.m.RequestResync(e.ref)
				nv.ask(e.ref, requestState{at: now, retried: true})
				n++
			}
		}
		if nv.head == len(nv.queue) {
			nv.queue, nv.head = nv.queue[:0], 0
		}
	}
	nv.m.Tick(now)
}

// ask records a request made of ref, at the back of the queue. A full
// queue first drops the entries no longer live and moves the rest to the
// front; it grows when that freed less than half.
func (nv *netvarState) ask(ref netvar.Ref, r requestState) {
	nv.asked[ref] = r
	if len(nv.queue) == cap(nv.queue) && cap(nv.queue) > 0 {
		kept := nv.queue[:0]
		for _, e := range nv.queue[nv.head:] {
			if cur, ok := nv.asked[e.ref]; ok && cur == e.state {
				kept = append(kept, e)
			}
		}
		clear(nv.queue[len(kept):])
		nv.queue, nv.head = kept, 0
		if len(kept) > cap(kept)/2 {
			nv.queue = slices.Grow(kept, cap(kept))
		}
	}
	nv.queue = append(nv.queue, askedEntry{ref, r})
}

// requestResync queues ent for the next tick's request.
func (nv *netvarState) requestResync(ent netvar.Ref) {
	for _, r := range nv.want {
		if r == ent {
			return
		}
	}
	nv.want = append(nv.want, ent)
}

// deliverNetvar handles a reliable packet the netvars care about: the
// three messages, and the shows and hides that create and remove entities.
func (c *Client) deliverNetvar(p wire.Packet) {
	nv := &c.nv
	switch x := p.(type) {
	case *wire.NetvarManifest:
		payload := bytes.Clone(x.Payload)
		nv.m.Receive(netvar.MsgSync, payload)
		nv.bindTargets(netvar.MsgSync, payload) // the schema exists now; buffers apply
	case *wire.NetvarResync:
		payload := bytes.Clone(x.Payload)
		nv.bindTargets(netvar.MsgResync, payload)
		nv.m.Receive(netvar.MsgResync, payload)
	case *wire.NetvarUpdate:
		payload := bytes.Clone(x.Payload)
		nv.bindTargets(netvar.MsgUpdate, payload)
		nv.m.Receive(netvar.MsgUpdate, payload)
	case *wire.PlayerShow:
		if x.Active == 1 {
			if !nv.shown[x.PlayerID] {
				nv.shown[x.PlayerID] = true
				nv.requestResync(netvar.PlayerRef(x.PlayerID))
			}
			return
		}
		nv.playerRemoved(x.PlayerID)
	case *wire.VehicleShow:
		ref := netvar.Ref{Kind: netvar.KindVehicle, ID: x.VehicleID}
		if x.Active == 1 {
			nv.requestResync(ref)
			return
		}
		nv.m.EntityRemoved(ref)
		delete(nv.asked, ref)
	}
}

func (nv *netvarState) playerRemoved(slot uint16) {
	if slot == nv.me {
		return
	}
	if uid, ok := nv.bound[slot]; ok {
		nv.last[slot] = uid
	}
	delete(nv.shown, slot)
	delete(nv.bound, slot)
	delete(nv.asked, netvar.PlayerRef(slot))
	nv.m.PlayerRemoved(netvar.PlayerID(slot))
}

// bindTargets reads the targets of a payload and binds each shown,
// unbound player slot to the first UserID that is not an earlier
// occupant's; it also marks the entities answered.
func (nv *netvarState) bindTargets(m netvar.Message, payload []byte) {
	s := nv.m.Schema()
	if s == nil {
		return
	}
	see := func(t netvar.Target) {
		delete(nv.asked, t.Ref)
		if t.Ref.Kind != netvar.KindPlayer {
			return
		}
		slot := t.Ref.ID
		if _, ok := nv.bound[slot]; ok || !nv.shown[slot] {
			return
		}
		if last, ok := nv.last[slot]; ok && int16(t.UserID-last) <= 0 {
			return // an earlier occupant's: the guard drops it
		}
		nv.bound[slot] = t.UserID
		nv.m.PlayerCreated(netvar.PlayerID(slot), uint32(t.UserID))
	}
	collect := func(t netvar.Target, _ *netvar.Var, _ any) { see(t) }
	switch m {
	case netvar.MsgUpdate:
		if t, _, _, err := netvar.DecodeUpdate(payload, s); err == nil {
			see(t)
		}
	case netvar.MsgResync:
		netvar.DecodeResync(payload, s, collect)
	case netvar.MsgSync:
		if _, n, err := netvar.DecodeManifest(payload); err == nil {
			netvar.DecodeResync(payload[n:], s, collect)
		}
	}
}

// GetNetVar returns the value the client holds for ent's var key, or the
// var's default (nil for an unknown var).
func (c *Client) GetNetVar(ent netvar.Ref, key string) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nv.m.Get(ent, key)
}

// GetGlobal returns a Global var's value, or its default.
func (c *Client) GetGlobal(key string) any { return c.GetNetVar(netvar.Ref{}, key) }

// SetNetVar is the client-side Set<Name>() on the local player: a
// Predictable var is applied locally (predicted); a ClientOwned var is
// applied locally and sent as a ClientSet (buffered, latest wins, until the
// manifest arrives). Any other var is refused with a logged error: setting
// is the server's.
func (c *Client) SetNetVar(key string, value any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nv.m.SetLocal(key, value)
}

// RequestResync asks the server for ent's vars in the next tick's batched
// request (the client does this itself for every PlayerShow and
// VehicleShow).
func (c *Client) RequestResync(ent netvar.Ref) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nv.requestResync(ent)
}

// NetvarPlayerCreated binds player slot to userID explicitly (when the
// caller learned the UserID out of band): buffered values of that player
// apply, any other slot buffer is discarded.
func (c *Client) NetvarPlayerCreated(slot uint16, userID uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nv.shown[slot] = true
	c.nv.bound[slot] = uint16(userID)
	c.nv.m.PlayerCreated(netvar.PlayerID(slot), userID)
}

// NetvarPlayerRemoved forgets player slot and its values, as a PlayerShow
// hide does: a later value for that occupant is dropped.
func (c *Client) NetvarPlayerRemoved(slot uint16) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nv.playerRemoved(slot)
}

// NetvarsReady reports whether the manifest has arrived.
func (c *Client) NetvarsReady() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nv.m.Schema() != nil
}

// NetvarStats are the client's netvar counters.
type NetvarStats struct {
	Announces uint16 // Sync announces sent
	Dropped   uint64 // values the identity guard or a bad message discarded
}

// NetvarStats returns the netvar counters.
func (c *Client) NetvarStats() NetvarStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return NetvarStats{Announces: c.nv.attempts, Dropped: c.nv.m.Dropped()}
}

// takeNetvarChanges returns the changes for OnNetvar; under the lock.
func (c *Client) takeNetvarChanges() []NetvarChange {
	ch := c.nv.changes
	c.nv.changes = nil
	return ch
}
