package netvar

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// World is what the store needs to know of the world: who is connected,
// who an entity is streamed to (the PVS), and where things are (the PAS).
// The real world implements it on the tick goroutine; tests use a fake.
type World interface {
	// Players returns every connected player.
	Players() []PlayerID
	// UserID returns the player's identity, which only climbs as players
	// join (the guard against recycled slot ids).
	UserID(p PlayerID) uint32
	// StreamedTo returns the players ent is currently streamed to.
	StreamedTo(ent Ref) []PlayerID
	// Place returns where an entity or player is.
	Place(ent Ref) (Place, bool)
}

// Place is a position in a scope: only players in the same virtual world
// and interior can hear a position.
type Place struct {
	Pos             Vector
	World, Interior int32
}

// Message is the kind of a netvar message; the framing carries it.
type Message uint8

// The four messages of the spec.
const (
	MsgSync      Message = iota + 1 // sv → cl: manifest then bootstrap; cl → sv: ready
	MsgResync                       // sv → cl: var groups; cl → sv: entities to resync
	MsgUpdate                       // sv → cl: one live change
	MsgClientSet                    // cl → sv: one client-owned var of the sender
)

// SendFunc sends a payload to a player. The payload is only valid during
// the call, and the function must not call back into the store.
type SendFunc func(to PlayerID, m Message, payload []byte)

// HookFunc runs when a value changes on the server (the :SetHook() hook,
// server realm); predicted is always false on the server.
type HookFunc func(ent Ref, v *Var, newValue, oldValue any)

// Config holds the store's settings; a zero field takes its default.
type Config struct {
	ResyncRate       int     // network_resync_rate: entities resynced per tick, server-wide (32)
	ResyncRatePlayer int     // network_resync_rate_player: per player per tick (8)
	SyncBytes        int     // network_sync_bytes: Resync flush threshold (8192)
	ClientSetRate    int     // network_clientset_rate: ClientSet messages per player per second (30)
	PASRadius        float32 // the PAS: players within this distance (400, 2 × stream distance)
}

// DefaultStreamDistance is SA-MP's and open.mp's default stream distance.
const DefaultStreamDistance = 200

func (c Config) withDefaults() Config {
	if c.ResyncRate <= 0 {
		c.ResyncRate = 32
	}
	if c.ResyncRatePlayer <= 0 {
		c.ResyncRatePlayer = 8
	}
	if c.SyncBytes <= 0 {
		c.SyncBytes = DefaultSyncBytes
	}
	if c.ClientSetRate <= 0 {
		c.ClientSetRate = 30
	}
	if c.PASRadius <= 0 {
		c.PASRadius = 2 * DefaultStreamDistance
	}
	return c
}

// Stats counts what the store dropped.
type Stats struct {
	ClientSetFlooded  uint64 // over the per-second floodgate
	ClientSetRejected uint64 // malformed, not client-owned, or from a player not ready
	ResyncBadRequests uint64 // malformed resync requests
}

// owner holds one entity's (or the Globals') values.
type owner struct {
	vals map[*Var]any
	ever []*Var // every var ever set here, by id: a clear stays resyncable
}

func (o *owner) markSet(v *Var) {
	if i, found := slices.BinarySearchFunc(o.ever, v.id, func(e *Var, id int) int { return e.id - id }); !found {
		o.ever = slices.Insert(o.ever, i, v)
	}
}

func (o *owner) everSet(v *Var) bool {
	_, found := slices.BinarySearchFunc(o.ever, v.id, func(e *Var, id int) int { return e.id - id })
	return found
}

// Store is the server's var store. It belongs to the world goroutine.
type Store struct {
	// Immutable after NewStore.
	reg   *Registry
	s     *Schema
	world World
	send  SendFunc
	cfg   Config
	log   *slog.Logger

	// Hook, when set, runs on every change (server realm).
	Hook HookFunc

	owners   map[Ref]*owner // the zero Ref holds the Globals
	ready    map[PlayerID]bool
	waiters  map[PlayerID][]func(PlayerID)
	queues   *Queues
	debounce map[debounceKey]*debounceState
	flood    map[PlayerID]*floodState
	stats    Stats
	counters map[*Var]*VarCounters // per-var wire cost (counters.go)
	scratch  []byte                // encode scratch of the counters
	buf      []byte
	rw       *ResyncWriter
	rwTo     PlayerID

	pendingCustom []pendingUpdate // custom-coded bootstrap values, sent alone
	rcpt          []PlayerID      // scratch of recipients
}

// NewStore returns a store for the sealed registry reg.
func NewStore(reg *Registry, world World, send SendFunc, cfg Config) (*Store, error) {
	if !reg.Sealed() {
		return nil, errors.New("netvar: NewStore before the registry sealed")
	}
	st := &Store{
		reg: reg, s: reg.Schema(), world: world, send: send, cfg: cfg.withDefaults(), log: reg.log,
		owners: map[Ref]*owner{}, ready: map[PlayerID]bool{}, waiters: map[PlayerID][]func(PlayerID){},
		queues: NewQueues(), debounce: map[debounceKey]*debounceState{}, flood: map[PlayerID]*floodState{},
	}
	st.rw = NewResyncWriter(st.s, st.cfg.SyncBytes, func(p []byte) { st.send(st.rwTo, MsgResync, p) })
	return st, nil
}

// Schema returns the sealed schema the store encodes with.
func (st *Store) Schema() *Schema { return st.s }

// Stats returns the drop counters.
func (st *Store) Stats() Stats { return st.stats }

// Queues returns the resync queues (for QueueEntity and diagnostics).
func (st *Store) Queues() *Queues { return st.queues }

// lookup resolves a key for a set or get, logging a misuse.
func (st *Store) lookup(op string, ent Ref, key string) (*Var, error) {
	v, ok := st.s.Lookup(key)
	var err error
	switch {
	case !ok:
		err = fmt.Errorf("%s %q: var not registered or not networked", op, key)
	case v.scope == ScopeGlobal && ent.Kind != KindNone:
		err = fmt.Errorf("%s %q on %v: a Global var, use the Global accessor", op, key, ent)
	case v.scope != ScopeGlobal && ent.Kind == KindNone:
		err = fmt.Errorf("%s %q: a %s var needs an entity", op, key, v.scope)
	case v.scope == ScopeLocalPlayer && ent.Kind != KindPlayer:
		err = fmt.Errorf("%s %q on %v: a LocalPlayer var on a non-player entity", op, key, ent)
	}
	if err != nil {
		st.log.Error("netvar: "+err.Error(), "var", key)
		return nil, err
	}
	return v, nil
}

// Set sets an entity-scoped var (Entity:SetNetVar). A nil value clears it.
// Misuse and refused values are logged errors, returned too.
func (st *Store) Set(now time.Time, ent Ref, key string, value any) error {
	v, err := st.lookup("SetNetVar", ent, key)
	if err != nil {
		return err
	}
	return st.set(now, ent, v, value)
}

// SetGlobal sets a Global var.
func (st *Store) SetGlobal(now time.Time, key string, value any) error {
	v, err := st.lookup("SetGlobal", Ref{}, key)
	if err != nil {
		return err
	}
	return st.set(now, Ref{}, v, value)
}

// Get returns an entity-scoped var's value, or its default.
func (st *Store) Get(ent Ref, key string) any {
	v, err := st.lookup("GetNetVar", ent, key)
	if err != nil {
		return nil
	}
	return st.get(ent, v)
}

// GetGlobal returns a Global var's value, or its default.
func (st *Store) GetGlobal(key string) any {
	v, err := st.lookup("GetGlobal", Ref{}, key)
	if err != nil {
		return nil
	}
	return st.get(Ref{}, v)
}

func (st *Store) get(ent Ref, v *Var) any {
	if o := st.owners[ent]; o != nil {
		if x, ok := o.vals[v]; ok {
			return x
		}
	}
	return v.def
}

func (st *Store) set(now time.Time, ent Ref, v *Var, value any) error {
	n, err := normalize(value)
	if err != nil {
		st.log.Error("netvar: set refused", "var", v.name, "ent", ent, "err", err)
		return err
	}
	out, warn, reject := v.spec.check(n)
	if reject != nil {
		st.log.Error("netvar: set refused", "var", v.name, "ent", ent, "err", reject)
		return reject
	}
	if warn != nil {
		st.log.Error("netvar: set", "var", v.name, "ent", ent, "err", warn)
	}
	if v.maxBits < 0 || v.maxBits > 8*MaxPayload {
		// The sender decides the size: measure it once, here.
		if n := len(AppendUpdate(st.buf[:0], st.s, st.target(ent), v, out)); n > MaxPayload {
			err := fmt.Errorf("value encodes to %d bytes, over the %d-byte payload limit", n, MaxPayload)
			st.log.Error("netvar: set refused", "var", v.name, "ent", ent, "err", err)
			return err
		}
	}
	if v.debounce > 0 {
		st.debouncedSet(now, ent, v, out)
		return nil
	}
	st.apply(ent, v, out)
	return nil
}

// apply stores a value behind the delta guard, runs the hook and sends the
// live update. It reports whether the value changed.
func (st *Store) apply(ent Ref, v *Var, value any) bool {
	o := st.owners[ent]
	if o == nil {
		o = &owner{vals: map[*Var]any{}}
		st.owners[ent] = o
	}
	old, had := o.vals[v]
	if Equal(old, value) && (had || value == nil) {
		return false
	}
	if value == nil {
		delete(o.vals, v)
	} else {
		o.vals[v] = value
	}
	o.markSet(v)
	if st.Hook != nil {
		st.Hook(ent, v, st.withDefault(v, value), st.withDefault(v, old))
	}
	st.sendLive(ent, v, value)
	return true
}

func (st *Store) withDefault(v *Var, x any) any {
	if x == nil {
		return v.def
	}
	return x
}

func (st *Store) target(ent Ref) Target {
	t := Target{Ref: ent}
	if ent.Kind == KindPlayer {
		t.UserID = uint16(st.world.UserID(PlayerID(ent.ID)))
	}
	return t
}

// sendLive sends one change to the var's recipients that are ready.
func (st *Store) sendLive(ent Ref, v *Var, value any) {
	st.buf = AppendUpdate(st.buf[:0], st.s, st.target(ent), v, value)
	c := st.counted(v)
	for _, p := range st.recipients(ent, v, value) {
		st.send(p, MsgUpdate, st.buf)
		c.Updates++
		c.UpdateBytes += uint64(len(st.buf))
	}
}

// sendUpdate sends one entry to one ready player.
func (st *Store) sendUpdate(p PlayerID, ent Ref, v *Var, value any) {
	st.buf = AppendUpdate(st.buf[:0], st.s, st.target(ent), v, value)
	st.send(p, MsgUpdate, st.buf)
	c := st.counted(v)
	c.Updates++
	c.UpdateBytes += uint64(len(st.buf))
}

// recipients returns the ready players a live change goes to, in a
// scratch slice valid until the next call.
func (st *Store) recipients(ent Ref, v *Var, value any) []PlayerID {
	out := st.rcpt[:0]
	defer func() { st.rcpt = out[:0] }()
	if v.scope == ScopeLocalPlayer {
		if p := PlayerID(ent.ID); st.ready[p] {
			out = append(out, p)
		}
		return out
	}
	mode := v.recip
	if ent.Kind == KindNone && (mode == SendPVS || mode == SendPAS) {
		mode = Broadcast // a Global has no position
	}
	switch mode {
	case Broadcast:
		out = st.appendReady(out)
	case SendPVS:
		for _, p := range st.world.StreamedTo(ent) {
			if st.ready[p] {
				out = append(out, p)
			}
		}
	case SendPAS:
		out = st.appendHearers(out, ent)
	case SendOmit:
		omit := v.recipFn(ent, value)
		for _, p := range st.world.Players() {
			if st.ready[p] && !slices.Contains(omit, p) {
				out = append(out, p)
			}
		}
	case Filter:
		for _, p := range v.recipFn(ent, value) {
			if st.ready[p] && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func (st *Store) readyPlayers() []PlayerID { return st.appendReady(nil) }

func (st *Store) appendReady(out []PlayerID) []PlayerID {
	for _, p := range st.world.Players() {
		if st.ready[p] {
			out = append(out, p)
		}
	}
	return out
}

// appendHearers appends the PAS: ready players within PASRadius in the
// same virtual world and interior.
func (st *Store) appendHearers(out []PlayerID, ent Ref) []PlayerID {
	at, ok := st.world.Place(ent)
	if !ok {
		return out
	}
	r2 := st.cfg.PASRadius * st.cfg.PASRadius
	for _, p := range st.world.Players() {
		if !st.ready[p] {
			continue
		}
		pl, ok := st.world.Place(PlayerRef(uint16(p)))
		if !ok || pl.World != at.World || pl.Interior != at.Interior {
			continue
		}
		dx, dy, dz := pl.Pos.X-at.Pos.X, pl.Pos.Y-at.Pos.Y, pl.Pos.Z-at.Pos.Z
		if dx*dx+dy*dy+dz*dz <= r2 {
			out = append(out, p)
		}
	}
	return out
}

// passes reports whether p passes v's Filter for this value (true for a
// var without one, and always for LocalPlayer: the filter is inert there).
func passes(p PlayerID, ent Ref, v *Var, value any) bool {
	if v.recip != Filter || v.scope == ScopeLocalPlayer {
		return true
	}
	return slices.Contains(v.recipFn(ent, value), p)
}

// EntityRemoved forgets an entity's values, queue entries and debounce
// state.
func (st *Store) EntityRemoved(ent Ref) {
	delete(st.owners, ent)
	st.queues.RemoveEntity(ent)
	for k := range st.debounce {
		if k.ent == ent {
			delete(st.debounce, k)
		}
	}
}

// PlayerRemoved forgets a disconnected player: their queue, handshake,
// waiters, floodgate, and their player entity's values.
func (st *Store) PlayerRemoved(p PlayerID) {
	st.queues.RemovePlayer(p)
	delete(st.ready, p)
	delete(st.waiters, p)
	delete(st.flood, p)
	st.EntityRemoved(PlayerRef(uint16(p)))
}
