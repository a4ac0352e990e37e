package netvar

import (
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// Client-side constants of the spec.
const (
	AnnounceInterval = 3 * time.Second // Sync announce retry until the manifest arrives
	AnnounceAttempts = 20
)

// MirrorHook runs when a value changes on the client: predicted is true
// only for a local apply the server has not confirmed.
type MirrorHook func(ent Ref, v *Var, newValue, oldValue any, predicted bool)

// Mirror is the client half of one connection: the Sync announce, the
// manifest, decoding Update/Resync into a copy of the values behind the
// delta guard, the player identity guard, Predictable and ClientOwned local
// sets (the latter buffered until the manifest lands, latest wins), and
// batched resync requests. The SDK wraps it; it belongs to one goroutine.
type Mirror struct {
	// Immutable after NewMirror.
	reg  *Registry
	send func(m Message, payload []byte)
	log  *slog.Logger

	// Hook, when set, runs on every change.
	Hook MirrorHook

	s            *Schema // nil until the manifest arrives
	owners       map[Ref]map[*Var]any
	slots        map[uint16]uint16 // player slot → UserID of its occupant
	lastUID      map[uint16]uint16 // slot → UserID of its last occupant
	buffers      map[uint16]*slotBuffer
	pendingSets  map[string]any
	wantResync   []Ref
	announced    int
	lastAnnounce time.Time
	me           uint16 // our own player slot
	dropped      uint64
}

// slotBuffer holds values for a player the client has not created yet.
type slotBuffer struct {
	uid     uint16
	entries []bufferedEntry
}

type bufferedEntry struct {
	v     *Var
	value any
}

// NewMirror returns the client state of a connection as player me. send
// transmits a client → server payload (valid only during the call).
func NewMirror(reg *Registry, me PlayerID, send func(m Message, payload []byte)) *Mirror {
	return &Mirror{
		reg: reg, send: send, log: reg.log, me: uint16(me),
		owners: map[Ref]map[*Var]any{}, slots: map[uint16]uint16{}, lastUID: map[uint16]uint16{},
		buffers: map[uint16]*slotBuffer{}, pendingSets: map[string]any{},
	}
}

// Schema returns the schema bound from the manifest, nil before it.
func (m *Mirror) Schema() *Schema { return m.s }

// Dropped counts values the identity guard or a bad message discarded.
func (m *Mirror) Dropped() uint64 { return m.dropped }

// Tick sends the Sync announce (every AnnounceInterval, at most
// AnnounceAttempts times, until the manifest arrives) and the batched
// resync request of this frame.
func (m *Mirror) Tick(now time.Time) {
	if m.s == nil && m.announced < AnnounceAttempts && (m.announced == 0 || !now.Before(m.lastAnnounce.Add(AnnounceInterval))) {
		m.announced++
		m.lastAnnounce = now
		m.send(MsgSync, nil)
	}
	if m.s != nil && len(m.wantResync) > 0 {
		m.send(MsgResync, AppendResyncRequest(nil, m.wantResync))
		m.wantResync = m.wantResync[:0]
	}
}

// RequestResync asks for ent's values (it was created or re-entered the
// stream): requests are batched into one message per Tick.
func (m *Mirror) RequestResync(ent Ref) {
	if !slices.Contains(m.wantResync, ent) {
		m.wantResync = append(m.wantResync, ent)
	}
}

// Receive handles a server → client payload. A bad message is logged and
// dropped; entries decoded before the fault stand.
func (m *Mirror) Receive(msg Message, payload []byte) error {
	var err error
	switch msg {
	case MsgSync:
		var man Manifest
		var n int
		man, n, err = DecodeManifest(payload)
		if err != nil {
			break
		}
		if m.s == nil || m.s.Hash() != man.Hash {
			// A different manifest: values held under another binding
			// cannot be trusted. The first one keeps the local values
			// (Predictable and ClientOwned sets made before it arrived).
			first := m.s == nil
			if !first {
				clear(m.owners)
			}
			m.s = m.reg.Bind(man)
			if first {
				m.rebindLocal()
			}
		}
		err = DecodeResync(payload[n:], m.s, m.applyRemote)
		m.flushPendingSets()
	case MsgUpdate, MsgResync:
		if m.s == nil {
			err = fmt.Errorf("netvar: message %d before the manifest", msg)
			break
		}
		if msg == MsgResync {
			err = DecodeResync(payload, m.s, m.applyRemote)
			break
		}
		var t Target
		var v *Var
		var value any
		t, v, value, err = DecodeUpdate(payload, m.s)
		if err == nil {
			m.applyRemote(t, v, value)
		}
	default:
		err = fmt.Errorf("netvar: message %d is not server → client", msg)
	}
	if err != nil {
		m.dropped++
		m.log.Error("netvar: message dropped", "msg", msg, "err", err)
	}
	return err
}

// later reports whether UserID a came after b (serial arithmetic mod 2^16).
func later(a, b uint16) bool { return int16(a-b) > 0 }

// applyRemote applies one received entry through the identity guard.
func (m *Mirror) applyRemote(t Target, v *Var, value any) {
	if t.Ref.Kind == KindPlayer {
		slot := t.Ref.ID
		cur, occupied := m.slots[slot]
		switch {
		case occupied && cur == t.UserID:
		case occupied && later(cur, t.UserID), !occupied && m.hadEarlier(slot, t.UserID):
			m.dropped++ // an earlier occupant's value: stale
			return
		default:
			m.buffer(slot, t.UserID, v, value)
			return
		}
	}
	m.apply(t.Ref, v, value, false)
}

func (m *Mirror) hadEarlier(slot, uid uint16) bool {
	last, ok := m.lastUID[slot]
	return ok && !later(uid, last)
}

func (m *Mirror) buffer(slot, uid uint16, v *Var, value any) {
	b := m.buffers[slot]
	switch {
	case b == nil || later(uid, b.uid):
		b = &slotBuffer{uid: uid}
		m.buffers[slot] = b
	case b.uid != uid:
		m.dropped++ // for a player earlier than the buffer's owner
		return
	}
	b.entries = append(b.entries, bufferedEntry{v, value})
}

// PlayerCreated tells the mirror the client created player slot with this
// UserID: a buffer it owns is applied, any other is discarded.
func (m *Mirror) PlayerCreated(slot PlayerID, userID uint32) {
	id, uid := uint16(slot), uint16(userID)
	m.slots[id] = uid
	b := m.buffers[id]
	delete(m.buffers, id)
	if b == nil {
		return
	}
	if b.uid != uid {
		m.dropped += uint64(len(b.entries))
		return
	}
	for _, e := range b.entries {
		m.apply(PlayerRef(id), e.v, e.value, false)
	}
}

// PlayerRemoved forgets the player in slot and their values.
func (m *Mirror) PlayerRemoved(slot PlayerID) {
	id := uint16(slot)
	if uid, ok := m.slots[id]; ok {
		m.lastUID[id] = uid
	}
	delete(m.slots, id)
	delete(m.owners, PlayerRef(id))
}

// EntityRemoved forgets a non-player entity's values.
func (m *Mirror) EntityRemoved(ent Ref) { delete(m.owners, ent) }

// apply is ApplyValue: the delta guard, then the hook.
func (m *Mirror) apply(ent Ref, v *Var, value any, predicted bool) {
	vals := m.owners[ent]
	if vals == nil {
		vals = map[*Var]any{}
		m.owners[ent] = vals
	}
	old, had := vals[v]
	if had && Equal(old, value) || !had && value == nil {
		return
	}
	if value == nil {
		delete(vals, v)
	} else {
		vals[v] = value
	}
	if m.Hook != nil {
		m.Hook(ent, v, orDefault(v, value), orDefault(v, old), predicted)
	}
}

func orDefault(v *Var, x any) any {
	if x == nil {
		return v.def
	}
	return x
}

// rebindLocal moves the values set locally before the first manifest
// (under the local registry's vars) to the vars of the new binding, by
// name; a var the manifest does not have keeps nothing.
func (m *Mirror) rebindLocal() {
	for ent, vals := range m.owners {
		moved := make(map[*Var]any, len(vals))
		for v, x := range vals {
			if nv, ok := m.s.Lookup(v.name); ok {
				moved[nv] = x
			}
		}
		m.owners[ent] = moved
	}
}

// Get returns a value the client holds for ent (the zero Ref for a
// Global), or the var's default.
func (m *Mirror) Get(ent Ref, key string) any {
	v := m.lookup(key)
	if v == nil {
		return nil
	}
	if x, ok := m.owners[ent][v]; ok {
		return x
	}
	return v.def
}

// lookup prefers the bound var; before the manifest, the local one.
func (m *Mirror) lookup(key string) *Var {
	if m.s != nil {
		if v, ok := m.s.Lookup(key); ok {
			return v
		}
	}
	if v, ok := m.reg.vars[key]; ok && v.broken == nil {
		return v
	}
	return nil
}

// SetLocal is the client-side Set<Name>(): for a Predictable var it applies
// locally (predicted); for a ClientOwned var it applies locally and sends a
// ClientSet, buffered until the manifest arrives. Anything else is a logged
// error: setting is server-authoritative.
func (m *Mirror) SetLocal(key string, value any) error {
	v := m.lookup(key)
	if v == nil {
		err := fmt.Errorf("client set %q: var not registered", key)
		m.log.Error("netvar: " + err.Error())
		return err
	}
	if !v.clientOwned && !v.predictable {
		err := fmt.Errorf("client set %q: neither Predictable nor ClientOwned", key)
		m.log.Error("netvar: "+err.Error(), "var", key)
		return err
	}
	n, err := normalize(value)
	if err == nil {
		var reject, warn error
		n, warn, reject = v.spec.check(n)
		if warn != nil {
			m.log.Error("netvar: client set", "var", key, "err", warn)
		}
		err = reject
	}
	if err != nil {
		m.log.Error("netvar: client set refused", "var", key, "err", err)
		return err
	}
	m.apply(PlayerRef(m.me), v, n, true)
	if !v.clientOwned {
		return nil
	}
	if m.s == nil {
		m.pendingSets[key] = n // latest wins
		return nil
	}
	m.send(MsgClientSet, AppendClientSet(nil, m.s, v, n))
	return nil
}

// flushPendingSets sends the ClientSets made before the manifest, in name
// order, for vars the server calls ClientOwned.
func (m *Mirror) flushPendingSets() {
	keys := make([]string, 0, len(m.pendingSets))
	for k := range m.pendingSets {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, ok := m.s.Lookup(k)
		if !ok || !v.clientOwned {
			m.log.Error("netvar: buffered client set for a var the server does not accept", "var", k)
			continue
		}
		m.send(MsgClientSet, AppendClientSet(nil, m.s, v, m.pendingSets[k]))
	}
	clear(m.pendingSets)
}
