package netvar

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"dlmp/internal/bits"
)

// Handshake completes p's handshake (their Sync announce arrived): it
// sends the manifest with the bootstrap of the Globals and p's own
// LocalPlayer values, queues every entity with a value for p exactly as a
// resync (without revokes), then runs p's WaitForPlayer callbacks. A
// repeated announce resends the Sync (the first may have been lost).
func (st *Store) Handshake(p PlayerID) {
	st.buf = AppendSync(st.buf[:0], st.reg.Manifest(), func(w *bits.Writer) {
		st.bootstrapGroup(w, p, Ref{})
		st.bootstrapGroup(w, p, PlayerRef(uint16(p)))
	})
	again := st.ready[p]
	st.ready[p] = true
	st.send(p, MsgSync, st.buf)
	st.flushCustom()
	if again {
		return
	}
	for ent, o := range st.owners {
		if ent.Kind != KindNone && len(o.ever) > 0 {
			st.queues.Add(p, ent, QueueBootstrap)
		}
	}
	ws := st.waiters[p]
	delete(st.waiters, p)
	for _, fn := range ws {
		fn(p)
	}
}

// bootstrapGroup writes the Global (ent zero) or p's own LocalPlayer
// values that p may see, with no revokes and no cleared vars.
func (st *Store) bootstrapGroup(w *bits.Writer, p PlayerID, ent Ref) {
	o := st.owners[ent]
	if o == nil {
		return
	}
	open := false
	for _, v := range o.ever {
		if v.noSync || ent.Kind != KindNone && v.scope != ScopeLocalPlayer {
			continue
		}
		value, ok := o.vals[v]
		if !ok || !v.spec.batchable() || !passes(p, ent, v, value) {
			continue
		}
		if !open {
			w.WriteBool(true)
			writeTarget(w, st.target(ent))
			open = true
		}
		w.WriteBool(true)
		WriteVarEntry(w, st.s, v, value)
	}
	if open {
		w.WriteBool(false)
	}
	// Custom-coded values go alone, as Updates right after the Sync.
	for _, v := range o.ever {
		if v.spec.batchable() || v.noSync || ent.Kind != KindNone && v.scope != ScopeLocalPlayer {
			continue
		}
		if value, ok := o.vals[v]; ok && passes(p, ent, v, value) {
			st.pendingCustom = append(st.pendingCustom, pendingUpdate{p, ent, v, value})
		}
	}
}

// Ready reports whether p's handshake has completed.
func (st *Store) Ready(p PlayerID) bool { return st.ready[p] }

// WaitForPlayer runs fn(p) once p's handshake completes, or now if it has.
func (st *Store) WaitForPlayer(p PlayerID, fn func(PlayerID)) {
	if st.ready[p] {
		fn(p)
		return
	}
	st.waiters[p] = append(st.waiters[p], fn)
}

// QueueEntity queues every var of ent for p, with revokes (the spec's
// QueueEntity: entry true).
func (st *Store) QueueEntity(p PlayerID, ent Ref) {
	if st.ready[p] {
		st.queues.Add(p, ent, QueueAll)
	}
}

// QueueEntityVars queues only the named vars of ent for p, with revokes.
func (st *Store) QueueEntityVars(p PlayerID, ent Ref, names *NameSet) {
	if st.ready[p] {
		st.queues.Add(p, ent, QueueNames(names))
	}
}

// AppendResyncRequest appends a client's Resync request: the entities it
// wants resynced, { 1 kind:2 id:16 }* 0.
func AppendResyncRequest(b []byte, ents []Ref) []byte {
	w := bits.NewWriter(b)
	for _, e := range ents {
		w.WriteBool(true)
		w.WriteBits(uint64(e.Kind), KindBits)
		w.WriteBits(uint64(e.ID), EntityIDBits)
	}
	w.WriteBool(false)
	return w.Bytes()
}

// ErrBadRequest is a malformed resync request.
var ErrBadRequest = errors.New("netvar: bad resync request")

// ResyncRequest queues the entities a client asked for (pull-on-visible).
// A malformed request is counted and dropped whole. The entities are
// collected in a buffer on the stack (a longer request spills to the
// heap), and the player's readiness is looked up once per request.
func (st *Store) ResyncRequest(p PlayerID, payload []byte) error {
	var buf [32]Ref
	ents, err := readResyncRequest(payload, buf[:0])
	if err != nil {
		st.stats.ResyncBadRequests++
		return fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	if !st.ready[p] { // as QueueEntity
		return nil
	}
	for _, e := range ents {
		st.queues.Add(p, e, QueueAll)
	}
	return nil
}

// readResyncRequest appends a request's entities to ents.
func readResyncRequest(payload []byte, ents []Ref) ([]Ref, error) {
	r := bits.NewReader(payload)
	for r.ReadBool() {
		e := Ref{Kind(r.ReadBits(KindBits)), uint16(r.ReadBits(EntityIDBits))}
		if e.Kind == KindNone {
			r.Fail(fmt.Errorf("kind none"))
		}
		ents = append(ents, e)
	}
	return ents, firstErr(r.Err(), trailing(&r))
}

// pendingUpdate is a custom-coded value waiting to go alone.
type pendingUpdate struct {
	p     PlayerID
	ent   Ref
	v     *Var
	value any
}

// Tick runs the time-driven work: due debounced values are applied, then
// the resync queues drain within the rates, one Resync stream per player.
func (st *Store) Tick(now time.Time) {
	st.flushDebounce(now)
	st.flushCustom()
	st.rwTo = ^PlayerID(0)
	st.queues.Drain(st.cfg.ResyncRate, st.cfg.ResyncRatePlayer, func(p PlayerID, ent Ref, e QueueEntry) {
		if p != st.rwTo {
			st.rw.Flush()
			st.rwTo = p
		}
		st.resyncEntity(p, ent, e)
	})
	st.rw.Flush()
}

func (st *Store) flushCustom() {
	for _, u := range st.pendingCustom {
		if st.ready[u.p] {
			st.sendUpdate(u.p, u.ent, u.v, u.value)
		}
	}
	st.pendingCustom = st.pendingCustom[:0]
}

// resyncEntity writes the group of ent for p: the vars e covers, each
// either its value, or, for a Filter()ed var p fails, the revoke (default
// or nil) when e revokes. Filter is evaluated here, at resync.
func (st *Store) resyncEntity(p PlayerID, ent Ref, e QueueEntry) {
	o := st.owners[ent]
	if o == nil || !st.ready[p] {
		return
	}
	st.rw.Group(st.target(ent))
	own := ent == PlayerRef(uint16(p))
	for _, v := range o.ever {
		// LocalPlayer values go to their owner only; the bootstrap's went
		// in the Sync already.
		if v.noSync || !e.Covers(v.name) || v.scope == ScopeLocalPlayer && (!own || e.kind == entryBootstrap) {
			continue
		}
		if value, ok := resyncValue(p, ent, v, o.vals[v], e); ok {
			st.rw.Entry(v, value)
			st.countResync(v, value)
		}
	}
}

// resyncValue decides what a resync entry e sends p for v: the value when
// p passes v's Filter; when p fails it, the revoke (the default, or nil)
// only if e revokes, else nothing. A bootstrap skips cleared vars: a fresh
// client has nothing to clear.
func resyncValue(p PlayerID, ent Ref, v *Var, value any, e QueueEntry) (any, bool) {
	if e.kind == entryBootstrap && value == nil {
		return nil, false
	}
	if passes(p, ent, v, value) {
		return value, true
	}
	if !e.Revokes() {
		return nil, false
	}
	return v.def, true
}

// Invalidate re-evaluates Filters when eligibility changed: players and
// ents nil mean all of them; keys are required. Entity-scoped keys are
// queued as narrowed resyncs (revoking); Global and LocalPlayer keys are
// sent directly: the current value to an eligible player, the default or
// nil to one who is not. Players whose handshake is not complete are
// skipped: their bootstrap evaluates every filter fresh.
func (st *Store) Invalidate(players []PlayerID, ents []Ref, keys ...string) error {
	if len(keys) == 0 {
		err := errors.New("Invalidate: a key is required")
		st.log.Error("netvar: " + err.Error())
		return err
	}
	var entKeys []string
	var direct []*Var
	for _, k := range keys {
		v, ok := st.s.Lookup(k)
		if !ok {
			err := fmt.Errorf("Invalidate %q: var not registered or not networked", k)
			st.log.Error("netvar: "+err.Error(), "var", k)
			return err
		}
		if IsEntityScope(v.scope) {
			entKeys = append(entKeys, k)
		} else {
			direct = append(direct, v)
		}
	}
	if players == nil {
		players = st.readyPlayers()
	}
	players = slices.DeleteFunc(slices.Clone(players), func(p PlayerID) bool { return !st.ready[p] })
	if len(entKeys) > 0 {
		ns := NewNameSet(entKeys...) // one shared set for every pair
		targets := ents
		if targets == nil {
			for ent, o := range st.owners {
				if ent.Kind != KindNone && st.carriesAny(o, entKeys) {
					targets = append(targets, ent)
				}
			}
		}
		for _, p := range players {
			for _, ent := range targets {
				st.queues.Add(p, ent, QueueNames(ns))
			}
		}
	}
	for _, v := range direct {
		for _, p := range players {
			ent := Ref{}
			if v.scope == ScopeLocalPlayer {
				ent = PlayerRef(uint16(p))
				if ents != nil && !slices.Contains(ents, ent) {
					continue
				}
			}
			o := st.owners[ent]
			if o == nil || !o.everSet(v) {
				continue
			}
			value := o.vals[v]
			if !passes(p, ent, v, value) {
				value = v.def
			}
			st.sendUpdate(p, ent, v, value)
		}
	}
	return nil
}

// carriesAny reports whether any of the named vars was ever set on o.
func (st *Store) carriesAny(o *owner, names []string) bool {
	for _, v := range o.ever {
		if slices.Contains(names, v.name) {
			return true
		}
	}
	return false
}
