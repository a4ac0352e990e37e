package netvar

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// link wires one server store to client mirrors, delivering at once.
type link struct {
	t       *testing.T
	st      *Store
	world   *fakeWorld
	clients map[PlayerID]*Mirror
	hooks   map[PlayerID][]string
	now     time.Time
	inbox   []func() // client → server messages, delivered by tick
}

func registerShared(r *Registry) {
	r.Register("weather").SetGlobal().UByte().SetDefault(1)
	r.Register("locked").SetVehicle().Bool().SendPVS()
	r.Register("job").SetPlayer().String(16).SetDefault("Citizen")
	r.Register("stamina").SetLocalPlayer().UByte().Predictable()
	r.Register("f1").SetPlayer().Bool().Debounce(1).ClientOwned().SetDefault(false)
}

func newLink(t *testing.T, players ...PlayerID) *link {
	t.Helper()
	srv, _ := newTestRegistry(t)
	registerShared(srv)
	srv.Register("server_only").SetGlobal().String()
	srv.Seal()
	l := &link{t: t, world: newFakeWorld(players...), clients: map[PlayerID]*Mirror{}, hooks: map[PlayerID][]string{}, now: time.Unix(500, 0)}
	st, err := NewStore(srv, l.world, func(to PlayerID, m Message, p []byte) {
		if c := l.clients[to]; c != nil {
			c.Receive(m, p)
		}
	}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	l.st = st
	for _, p := range players {
		cl, _ := newTestRegistry(t)
		registerShared(cl)
		cl.Seal()
		c := NewMirror(cl, p, func(m Message, payload []byte) {
			payload = slices.Clone(payload)
			l.inbox = append(l.inbox, func() { l.deliver(p, m, payload) })
		})
		c.Hook = func(ent Ref, v *Var, nv, ov any, predicted bool) {
			l.hooks[p] = append(l.hooks[p], fmtHook(ent, v.name, nv, predicted))
		}
		for _, q := range players {
			c.PlayerCreated(q, l.world.UserID(q))
		}
		l.clients[p] = c
	}
	return l
}

func (l *link) deliver(p PlayerID, m Message, payload []byte) {
	switch m {
	case MsgSync:
		l.st.Handshake(p)
	case MsgResync:
		if err := l.st.ResyncRequest(p, payload); err != nil {
			l.t.Errorf("resync request: %v", err)
		}
	case MsgClientSet:
		l.st.ClientSet(l.now, p, payload)
	}
}

func (l *link) flush() {
	for len(l.inbox) > 0 {
		fn := l.inbox[0]
		l.inbox = l.inbox[1:]
		fn()
	}
}

func fmtHook(ent Ref, name string, v any, predicted bool) string {
	s := ent.String() + " " + name + "=" + fmt.Sprint(v)
	if predicted {
		s += " (predicted)"
	}
	return s
}

func (l *link) tick(d time.Duration) {
	l.now = l.now.Add(d)
	for _, p := range slices.Sorted(mapsKeys(l.clients)) {
		l.clients[p].Tick(l.now)
	}
	l.flush()
	l.st.Tick(l.now)
	l.flush()
}

func mapsKeys(m map[PlayerID]*Mirror) func(func(PlayerID) bool) {
	return func(yield func(PlayerID) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func TestEndToEnd(t *testing.T) {
	l := newLink(t, 1, 2)
	l.st.SetGlobal(l.now, "weather", 4)
	l.st.SetGlobal(l.now, "server_only", "hi")
	l.st.Set(l.now, car, "locked", true)
	l.st.Set(l.now, PlayerRef(2), "job", "Medic")
	// Before the handshake the clients hold nothing.
	if got := l.clients[1].Get(Ref{}, "weather"); got != 1.0 {
		t.Fatalf("before the manifest weather = %v, want the local default 1", got)
	}
	l.tick(time.Millisecond) // announce → Sync → bootstrap queued
	c := l.clients[1]
	if c.Schema() == nil {
		t.Fatalf("no manifest after the announce")
	}
	if c.Get(Ref{}, "weather") != 4.0 || c.Get(Ref{}, "server_only") != "hi" {
		t.Fatalf("Globals not bootstrapped: weather %v, server_only %v", c.Get(Ref{}, "weather"), c.Get(Ref{}, "server_only"))
	}
	l.tick(time.Millisecond) // the bootstrap resync drains
	if c.Get(car, "locked") != true || c.Get(PlayerRef(2), "job") != "Medic" {
		t.Fatalf("entities not bootstrapped: locked %v job %v", c.Get(car, "locked"), c.Get(PlayerRef(2), "job"))
	}
	// Live PVS update, then pull-on-visible for the client that missed it.
	l.world.streamed[car] = []PlayerID{2}
	l.st.Set(l.now, car, "locked", false)
	if c.Get(car, "locked") != true || l.clients[2].Get(car, "locked") != false {
		t.Fatalf("PVS update reached the wrong clients")
	}
	c.RequestResync(car)
	c.RequestResync(car)
	l.tick(time.Millisecond)
	if c.Get(car, "locked") != false {
		t.Fatalf("pull-on-visible did not deliver the current value")
	}
	if c.Dropped() != 0 || l.clients[2].Dropped() != 0 {
		t.Fatalf("dropped %d/%d", c.Dropped(), l.clients[2].Dropped())
	}
}

func TestIdentityGuard(t *testing.T) {
	r, _ := newTestRegistry(t)
	job := r.Register("job").SetPlayer().String()
	s := r.Seal()
	m := NewMirror(r, 0, func(Message, []byte) {})
	m.s = s
	slot := PlayerID(5)
	upd := func(uid uint16, v string) {
		m.Receive(MsgUpdate, AppendUpdate(nil, s, Target{Ref: PlayerRef(5), UserID: uid}, job, v))
	}
	m.PlayerCreated(slot, 11)
	upd(10, "stale") // an earlier occupant: dropped
	upd(11, "mine")
	if got := m.Get(PlayerRef(5), "job"); got != "mine" {
		t.Fatalf("got %v, want mine", got)
	}
	upd(13, "early") // a later player: buffered
	upd(12, "older") // earlier than the buffer's owner: dropped
	if got := m.Get(PlayerRef(5), "job"); got != "mine" {
		t.Fatalf("a buffered value was applied to the current occupant: %v", got)
	}
	m.PlayerRemoved(slot)
	upd(11, "gone") // the player who left: stale
	m.PlayerCreated(slot, 13)
	if got := m.Get(PlayerRef(5), "job"); got != "early" {
		t.Fatalf("buffer for 13 not applied on creation: %v", got)
	}
	upd(14, "next")
	m.PlayerRemoved(slot)
	m.PlayerCreated(slot, 15) // not the buffer's owner: discarded
	if got := m.Get(PlayerRef(5), "job"); got != nil {
		t.Fatalf("a buffer for 14 was applied to 15: %v", got)
	}
	if m.Dropped() != 4 {
		t.Fatalf("dropped %d, want 4", m.Dropped())
	}
	// UserIDs wrap modulo 2^16: 65535 → 0 is later.
	if !later(0, 65535) || later(65535, 0) {
		t.Fatalf("serial comparison does not wrap")
	}
}

func TestClientOwnedBufferedAndPredictable(t *testing.T) {
	l := newLink(t, 1)
	c := l.clients[1]
	c.SetLocal("f1", true)
	c.SetLocal("f1", false)
	c.SetLocal("f1", true) // latest wins
	if got := l.hooks[1]; len(got) != 3 || got[2] != "player:1 f1=true (predicted)" {
		t.Fatalf("local applies: %v", got)
	}
	c.SetLocal("stamina", 42) // a prediction made before the manifest
	if err := c.SetLocal("job", "Thief"); err == nil {
		t.Fatalf("a server-owned var was set on the client")
	}
	l.tick(time.Millisecond) // manifest lands: the buffered set goes out once
	if got := l.st.Get(PlayerRef(1), "f1"); got != true {
		t.Fatalf("server f1 = %v after the buffered ClientSet", got)
	}
	if got := c.Get(PlayerRef(1), "stamina"); got != 42.0 {
		t.Fatalf("the prediction made before the manifest reads %v after it, want 42", got)
	}
	// Predictable: local apply, no send; the server's value then wins.
	l.hooks[1] = nil
	c.SetLocal("stamina", 5)
	if c.Get(PlayerRef(1), "stamina") != 5.0 || l.st.Get(PlayerRef(1), "stamina") != nil {
		t.Fatalf("predictable set: client %v server %v", c.Get(PlayerRef(1), "stamina"), l.st.Get(PlayerRef(1), "stamina"))
	}
	l.st.Set(l.now, PlayerRef(1), "stamina", 5) // matches the prediction: no hook
	l.st.Set(l.now, PlayerRef(1), "stamina", 7) // differs: snaps
	if got := l.hooks[1]; !slices.Equal(got, []string{"player:1 stamina=5 (predicted)", "player:1 stamina=7"}) {
		t.Fatalf("hooks %v", got)
	}
}

func TestAnnounceRetry(t *testing.T) {
	r, _ := newTestRegistry(t)
	r.Seal()
	n := 0
	m := NewMirror(r, 1, func(msg Message, _ []byte) {
		if msg == MsgSync {
			n++
		}
	})
	now := time.Unix(0, 0)
	for range 200 {
		m.Tick(now)
		now = now.Add(time.Second)
	}
	if n != AnnounceAttempts {
		t.Fatalf("announced %d times, want %d", n, AnnounceAttempts)
	}
	n = 0
	m2 := NewMirror(r, 1, func(msg Message, _ []byte) { n++ })
	for i := range 7 {
		m2.Tick(time.Unix(int64(i), 0))
	}
	if n != 3 { // at 0, 3 and 6 seconds
		t.Fatalf("announced %d times in 7 s, want 3", n)
	}
}
