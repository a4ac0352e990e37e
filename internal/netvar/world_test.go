package netvar

import (
	"slices"
	"testing"
	"time"
)

// fakeWorld is a World a test arranges by hand.
type fakeWorld struct {
	players  []PlayerID
	userIDs  map[PlayerID]uint32
	streamed map[Ref][]PlayerID
	places   map[Ref]Place
}

func newFakeWorld(players ...PlayerID) *fakeWorld {
	w := &fakeWorld{players: players, userIDs: map[PlayerID]uint32{}, streamed: map[Ref][]PlayerID{}, places: map[Ref]Place{}}
	for _, p := range players {
		w.userIDs[p] = uint32(p) + 1000
	}
	return w
}

func (w *fakeWorld) Players() []PlayerID           { return w.players }
func (w *fakeWorld) UserID(p PlayerID) uint32      { return w.userIDs[p] }
func (w *fakeWorld) StreamedTo(ent Ref) []PlayerID { return w.streamed[ent] }
func (w *fakeWorld) Place(ent Ref) (Place, bool) {
	pl, ok := w.places[ent]
	return pl, ok
}

// sent is one decoded entry a player received.
type sent struct {
	to    PlayerID
	msg   Message
	t     Target
	name  string
	value any
}

// wire records and decodes everything a store sends, as a client would.
type wire struct {
	t        *testing.T
	s        *Schema
	got      []sent
	payloads map[Message]int
	sizes    []int // Resync payload sizes
}

func (w *wire) send(to PlayerID, m Message, payload []byte) {
	w.t.Helper()
	w.payloads[m]++
	collect := func(t Target, v *Var, value any) { w.got = append(w.got, sent{to, m, t, v.name, value}) }
	switch m {
	case MsgUpdate:
		t, v, value, err := DecodeUpdate(payload, w.s)
		if err != nil {
			w.t.Fatalf("Update to %d does not decode: %v", to, err)
		}
		collect(t, v, value)
	case MsgResync:
		w.sizes = append(w.sizes, len(payload))
		if err := DecodeResync(payload, w.s, collect); err != nil {
			w.t.Fatalf("Resync to %d does not decode: %v", to, err)
		}
	case MsgSync:
		m, n, err := DecodeManifest(payload)
		if err != nil || m.Hash != w.s.Hash() {
			w.t.Fatalf("Sync manifest: %v", err)
		}
		if err := DecodeResync(payload[n:], w.s, collect); err != nil {
			w.t.Fatalf("Sync bootstrap: %v", err)
		}
		w.got = append(w.got, sent{to: to, msg: MsgSync, name: "<manifest>"})
	}
}

// take returns and forgets what was received.
func (w *wire) take() []sent {
	g := w.got
	w.got = nil
	return g
}

// to returns the entries received by p, as "name=value" strings.
func entriesTo(got []sent, p PlayerID) []sent {
	var out []sent
	for _, g := range got {
		if g.to == p && g.name != "<manifest>" {
			out = append(out, g)
		}
	}
	return out
}

func receivers(got []sent) []PlayerID {
	var out []PlayerID
	for _, g := range got {
		if !slices.Contains(out, g.to) {
			out = append(out, g.to)
		}
	}
	slices.Sort(out)
	return out
}

type harness struct {
	reg   *Registry
	log   *logBuf
	world *fakeWorld
	wire  *wire
	st    *Store
	now   time.Time
}

// newHarness seals reg and builds a store over a fake world of players,
// all with a completed handshake unless listed in notReady.
func newHarness(t *testing.T, reg *Registry, lb *logBuf, players []PlayerID, notReady ...PlayerID) *harness {
	t.Helper()
	s := reg.Seal()
	h := &harness{reg: reg, log: lb, world: newFakeWorld(players...), now: time.Unix(1000, 0)}
	h.wire = &wire{t: t, s: s, payloads: map[Message]int{}}
	st, err := NewStore(reg, h.world, h.wire.send, Config{})
	if err != nil {
		t.Fatal(err)
	}
	h.st = st
	for _, p := range players {
		if !slices.Contains(notReady, p) {
			st.Handshake(p)
		}
	}
	h.wire.take()
	return h
}

func (h *harness) tick(d time.Duration) {
	h.now = h.now.Add(d)
	h.st.Tick(h.now)
}
