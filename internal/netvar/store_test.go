package netvar

import (
	"slices"
	"testing"
	"time"
)

var car = Ref{KindVehicle, 5}

func TestLiveRecipients(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("bc").SetVehicle().Bool()
	r.Register("pvs").SetVehicle().Bool().SendPVS()
	r.Register("pas").SetVehicle().Bool().SendPAS()
	r.Register("omit").SetVehicle().Bool().SendOmit(func(Ref, any) []PlayerID { return []PlayerID{2} })
	r.Register("filter").SetVehicle().Bool().Filter(func(_ Ref, v any) []PlayerID {
		if v == true {
			return []PlayerID{1, 3, 99}
		}
		return []PlayerID{1}
	})
	r.Register("lp").SetLocalPlayer().UByte()
	h := newHarness(t, r, lb, []PlayerID{1, 2, 3, 4}, 4)
	h.world.streamed[car] = []PlayerID{2, 4}
	h.world.places[car] = Place{Pos: Vector{0, 0, 0}}
	h.world.places[PlayerRef(1)] = Place{Pos: Vector{399, 0, 0}}
	h.world.places[PlayerRef(2)] = Place{Pos: Vector{401, 0, 0}}
	h.world.places[PlayerRef(3)] = Place{Pos: Vector{10, 0, 0}, Interior: 3}
	cases := []struct {
		key  string
		ent  Ref
		v    any
		want []PlayerID
	}{
		{"bc", car, true, []PlayerID{1, 2, 3}}, // 4 is not ready
		{"pvs", car, true, []PlayerID{2}},
		{"pas", car, true, []PlayerID{1}}, // 2 too far, 3 in another interior
		{"omit", car, true, []PlayerID{1, 3}},
		{"filter", car, true, []PlayerID{1, 3}}, // 99 is not connected
		{"filter", car, false, []PlayerID{1}},   // the new value's recipients only
		{"lp", PlayerRef(2), 7, []PlayerID{2}},
	}
	for _, c := range cases {
		if err := h.st.Set(h.now, c.ent, c.key, c.v); err != nil {
			t.Fatalf("Set %s: %v", c.key, err)
		}
		got := h.wire.take()
		if r := receivers(got); !slices.Equal(r, c.want) {
			t.Errorf("%s=%v went to %v, want %v", c.key, c.v, r, c.want)
		}
	}
}

func TestDeltaGuardHookAndMisuse(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("rank").SetPlayer().Enum([]any{1, 2, 3}).SetDefault(1)
	r.Register("weather").SetGlobal().UByte()
	r.Register("lp").SetLocalPlayer().Bool()
	h := newHarness(t, r, lb, []PlayerID{1})
	var hooks []string
	h.st.Hook = func(ent Ref, v *Var, nv, ov any) { hooks = append(hooks, v.name) }
	me := PlayerRef(1)
	h.st.Set(h.now, me, "rank", 2)
	h.st.Set(h.now, me, "rank", 2.0)
	if got := len(h.wire.take()); got != 1 || len(hooks) != 1 {
		t.Errorf("same value twice: %d sends, %d hooks; want 1, 1", got, len(hooks))
	}
	if err := h.st.Set(h.now, me, "rank", 9); err == nil {
		t.Errorf("a value outside the enum was accepted")
	}
	lb.wantLog(t, "ERROR", "not in the enum", "rank")
	if got := h.st.Get(me, "rank"); got != 2.0 || len(h.wire.take()) != 0 {
		t.Errorf("refused value stored or sent: Get = %v", got)
	}
	h.st.Set(h.now, me, "rank", nil)
	if got := h.st.Get(me, "rank"); got != 1.0 {
		t.Errorf("after clearing, Get = %v, want the default 1", got)
	}
	if got := h.wire.take(); len(got) != 1 || got[0].value != nil {
		t.Errorf("clear sent %v, want nil (the client reads its default)", got)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{h.st.Set(h.now, car, "nope", 1), "not registered"},
		{h.st.Set(h.now, car, "weather", 1), "a Global var"},
		{h.st.Set(h.now, car, "lp", true), "LocalPlayer var on a non-player"},
		{h.st.SetGlobal(h.now, "rank", 1), "needs an entity"},
	} {
		if c.err == nil || !contains(c.err.Error(), c.want) {
			t.Errorf("misuse: err = %v, want %q", c.err, c.want)
		}
		lb.wantLog(t, "ERROR", c.want)
	}
	h.st.SetGlobal(h.now, "weather", 3)
	if h.st.GetGlobal("weather") != 3.0 {
		t.Errorf("GetGlobal = %v", h.st.GetGlobal("weather"))
	}
}

func TestHandshakeBootstrap(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("weather").SetGlobal().UByte()
	r.Register("secret_g").SetGlobal().UByte().Filter(func(Ref, any) []PlayerID { return []PlayerID{1} })
	r.Register("stamina").SetLocalPlayer().UByte()
	r.Register("locked").SetVehicle().Bool()
	r.Register("cleared").SetVehicle().Bool()
	r.Register("push").SetVehicle().Bool().SetNoSync()
	h := newHarness(t, r, lb, []PlayerID{1, 2}, 2)
	h.st.SetGlobal(h.now, "weather", 4)
	h.st.SetGlobal(h.now, "secret_g", 9)
	h.st.Set(h.now, PlayerRef(1), "stamina", 50)
	h.st.Set(h.now, PlayerRef(2), "stamina", 60)
	h.st.Set(h.now, car, "locked", true)
	h.st.Set(h.now, car, "cleared", true)
	h.st.Set(h.now, car, "cleared", nil)
	h.st.Set(h.now, car, "push", true)
	before := h.wire.take()
	if got := entriesTo(before, 2); len(got) != 0 {
		t.Fatalf("player 2 got %v before its handshake", got)
	}
	waited := 0
	h.st.WaitForPlayer(2, func(p PlayerID) { waited++ })
	h.st.Handshake(2)
	if waited != 1 {
		t.Fatalf("WaitForPlayer ran %d times, want 1", waited)
	}
	h.st.WaitForPlayer(2, func(p PlayerID) { waited++ })
	if waited != 2 {
		t.Fatalf("WaitForPlayer on a ready player did not run at once")
	}
	sync := h.wire.take()
	var names []string
	for _, g := range sync {
		if g.msg != MsgSync || g.to != 2 {
			t.Fatalf("handshake sent %+v", g)
		}
		names = append(names, g.name)
	}
	slices.Sort(names)
	if want := []string{"<manifest>", "stamina", "weather"}; !slices.Equal(names, want) {
		t.Fatalf("Sync carried %v, want %v (no other player's LocalPlayer, no filtered Global)", names, want)
	}
	if n, _, boot := h.st.Queues().Depth(2); n != 3 || boot != 3 {
		t.Fatalf("bootstrap queued %d entities (%d bootstrap), want 3: the car and players 1 and 2", n, boot)
	}
	h.tick(time.Millisecond)
	got := entriesTo(h.wire.take(), 2)
	if len(got) != 1 || got[0].name != "locked" || got[0].msg != MsgResync || got[0].t.Ref != car {
		t.Fatalf("bootstrap resync sent %+v, want only locked (no cleared, no noSync, no one else's LocalPlayer)", got)
	}
}

func TestPlayerIdentityHeader(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("job").SetPlayer().String()
	h := newHarness(t, r, lb, []PlayerID{3})
	h.world.userIDs[3] = 70000 + 3
	h.st.Set(h.now, PlayerRef(3), "job", "cop")
	got := h.wire.take()
	if len(got) != 1 || got[0].t.UserID != uint16((70000+3)%65536) {
		t.Fatalf("got %+v, want UserID %d", got, (70000+3)%65536)
	}
}

func TestMaskingAndInvalidate(t *testing.T) {
	r, lb := newTestRegistry(t)
	staff := map[PlayerID]bool{1: true}
	allowed := func(Ref, any) []PlayerID {
		var out []PlayerID
		for p, ok := range staff {
			if ok {
				out = append(out, p)
			}
		}
		return out
	}
	r.Register("_svrank").SetPlayer().String().SetDefault("user").Filter(allowed)
	r.Register("owner").SetVehicle().UShort().Filter(allowed)
	r.Register("other").SetVehicle().Bool()
	r.Register("prn").SetGlobal().UByte().Filter(allowed)
	h := newHarness(t, r, lb, []PlayerID{1, 2, 3}, 3)
	boss := PlayerRef(7)
	h.st.Set(h.now, boss, "_svrank", "admin")
	h.st.Set(h.now, car, "owner", 42)
	h.st.Set(h.now, car, "other", true)
	h.st.SetGlobal(h.now, "prn", 5)
	if got := receivers(h.wire.take()); !slices.Equal(got, []PlayerID{1, 2}) {
		t.Fatalf("sets went to %v", got)
	}
	// A PVS-style resync for player 2 (not staff) revokes: default or nil.
	h.st.QueueEntity(2, boss)
	h.st.QueueEntity(2, car)
	h.tick(time.Millisecond)
	got := entriesTo(h.wire.take(), 2)
	want := map[string]any{"_svrank": "user", "owner": nil, "other": true}
	if len(got) != 3 {
		t.Fatalf("resync gave %+v", got)
	}
	for _, g := range got {
		if w := want[g.name]; !Equal(g.value, w) {
			t.Errorf("resync %s = %v, want %v", g.name, g.value, w)
		}
	}
	// One player, one entity, one key: 2 becomes staff.
	staff[2] = true
	h.st.Invalidate([]PlayerID{2}, []Ref{car}, "owner")
	if e := h.st.Queues().Entry(2, car); e.kind != entryNames || !e.Covers("owner") || e.Covers("other") {
		t.Fatalf("Invalidate queued %v, want {owner}", e)
	}
	h.tick(time.Millisecond)
	if got := entriesTo(h.wire.take(), 2); len(got) != 1 || got[0].value != 42.0 {
		t.Fatalf("invalidate to eligible sent %+v, want owner=42", got)
	}
	// All players, one entity: 1 stops being staff; 3 (not ready) is skipped.
	staff[1] = false
	h.st.Invalidate(nil, []Ref{car}, "owner")
	if e := h.st.Queues().Entry(3, car); !e.IsZero() {
		t.Fatalf("a player without a handshake was queued: %v", e)
	}
	h.tick(time.Millisecond)
	got = h.wire.take()
	if g := entriesTo(got, 1); len(g) != 1 || g[0].value != nil {
		t.Fatalf("revoke to 1 sent %+v, want owner=nil", g)
	}
	// One player, all entities: only entities carrying the key are queued.
	h.st.Invalidate([]PlayerID{1}, nil, "_svrank")
	if n, narrowed, _ := h.st.Queues().Depth(1); n != 1 || narrowed != 1 {
		t.Fatalf("queued %d (%d narrowed), want only the player carrying _svrank", n, narrowed)
	}
	h.tick(time.Millisecond)
	if g := entriesTo(h.wire.take(), 1); len(g) != 1 || g[0].value != "user" {
		t.Fatalf("masked revoke sent %+v, want the default", g)
	}
	// A Global key goes direct: eligible gets the value, the rest the mask.
	h.st.Invalidate(nil, nil, "prn")
	got = h.wire.take()
	if g := entriesTo(got, 2); len(g) != 1 || g[0].value != 5.0 || g[0].msg != MsgUpdate {
		t.Fatalf("global invalidate to eligible: %+v", g)
	}
	if g := entriesTo(got, 1); len(g) != 1 || g[0].value != nil {
		t.Fatalf("global invalidate to ineligible: %+v", g)
	}
	if err := h.st.Invalidate(nil, nil); err == nil {
		t.Fatalf("Invalidate without a key succeeded")
	}
}

// TestEverSetClosesClearLimitation: a value cleared while a player is
// filtered out still reaches that player's next resync as a clear.
func TestEverSetClosesClearLimitation(t *testing.T) {
	r, lb := newTestRegistry(t)
	in := true
	r.Register("owner").SetVehicle().UShort().Filter(func(Ref, any) []PlayerID {
		if in {
			return []PlayerID{1}
		}
		return nil
	})
	h := newHarness(t, r, lb, []PlayerID{1})
	h.st.Set(h.now, car, "owner", 9)
	in = false
	h.st.Set(h.now, car, "owner", nil)
	h.wire.take()
	in = true
	h.st.QueueEntity(1, car)
	h.tick(time.Millisecond)
	if g := entriesTo(h.wire.take(), 1); len(g) != 1 || g[0].name != "owner" || g[0].value != nil {
		t.Fatalf("resync after a clear sent %+v, want owner=nil", g)
	}
}

func TestDebounce(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("f1").SetPlayer().Bool().Debounce(1).SetDefault(false)
	h := newHarness(t, r, lb, []PlayerID{1})
	me := PlayerRef(1)
	h.st.Set(h.now, me, "f1", true) // quiet: applies now
	if g := h.wire.take(); len(g) != 1 || h.st.Get(me, "f1") != true {
		t.Fatalf("quiet set: %d sends, value %v", len(g), h.st.Get(me, "f1"))
	}
	// A burst inside the window settles on the stored value: nothing sent.
	h.now = h.now.Add(100 * time.Millisecond)
	for i := range 11 {
		h.st.Set(h.now, me, "f1", i%2 == 0)
	}
	if h.st.Get(me, "f1") != true {
		t.Fatalf("a set inside the window applied early")
	}
	h.tick(time.Second)
	if g := h.wire.take(); len(g) != 0 {
		t.Fatalf("burst back to the stored value sent %+v", g)
	}
	// Latest wins, applied when the window closes.
	h.st.Set(h.now, me, "f1", false) // quiet again (no dispatch since): applies
	h.now = h.now.Add(300 * time.Millisecond)
	h.st.Set(h.now, me, "f1", true)
	h.st.Set(h.now, me, "f1", false)
	h.st.Set(h.now, me, "f1", true)
	h.tick(500 * time.Millisecond) // 0.8 s into the window
	if g := h.wire.take(); len(g) != 1 {
		t.Fatalf("before the window closed: %d sends, want 1 (the quiet set)", len(g))
	}
	h.tick(200 * time.Millisecond)
	if g := h.wire.take(); len(g) != 1 || g[0].value != true {
		t.Fatalf("window close sent %+v, want f1=true", g)
	}
	if len(h.st.debounce) != 1 {
		t.Fatalf("%d debounce slots, want 1 (window reopened by the dispatch)", len(h.st.debounce))
	}
	h.tick(2 * time.Second)
	if len(h.st.debounce) != 0 {
		t.Fatalf("a quiet pair was not forgotten")
	}
}

func TestClientSet(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("f1").SetPlayer().Bool().Debounce(0.01).ClientOwned()
	r.Register("srv").SetPlayer().Bool()
	h := newHarness(t, r, lb, []PlayerID{1, 2}, 2)
	s := h.st.Schema()
	f1, _ := s.Lookup("f1")
	srv, _ := s.Lookup("srv")
	on := AppendClientSet(nil, s, f1, true)
	if err := h.st.ClientSet(h.now, 1, on); err != nil || h.st.Get(PlayerRef(1), "f1") != true {
		t.Fatalf("ClientSet: %v, value %v", err, h.st.Get(PlayerRef(1), "f1"))
	}
	if err := h.st.ClientSet(h.now, 1, AppendClientSet(nil, s, srv, true)); err != errNotClientOwned {
		t.Fatalf("ClientSet of a server var: %v", err)
	}
	if err := h.st.ClientSet(h.now, 2, on); err != errNotReady {
		t.Fatalf("ClientSet before the handshake: %v", err)
	}
	if err := h.st.ClientSet(h.now, 1, []byte{0xFF, 0xFF}); err == nil {
		t.Fatalf("malformed ClientSet accepted")
	}
	// The floodgate: 30 per second, then the rest of the second ignored.
	h.now = h.now.Add(time.Second)
	flooded := 0
	for range 40 {
		if h.st.ClientSet(h.now, 1, on) == errFlooded {
			flooded++
		}
	}
	if flooded != 10 || lb.count("floodgate") != 1 {
		t.Fatalf("flooded %d (want 10), warnings %d (want 1)", flooded, lb.count("floodgate"))
	}
	h.now = h.now.Add(time.Second)
	if err := h.st.ClientSet(h.now, 1, on); err != nil {
		t.Fatalf("next second still flooded: %v", err)
	}
	if st := h.st.Stats(); st.ClientSetFlooded != 10 || st.ClientSetRejected != 3 {
		t.Fatalf("stats %+v", st)
	}
}

func TestQueueEntityVarsNarrows(t *testing.T) {
	r, lb := newTestRegistry(t)
	r.Register("a").SetEntity().Bool()
	r.Register("b").SetEntity().Bool()
	h := newHarness(t, r, lb, []PlayerID{1, 2}, 2)
	h.st.Set(h.now, car, "a", true)
	h.st.Set(h.now, car, "b", true)
	h.wire.take()
	h.st.QueueEntityVars(1, car, NewNameSet("b"))
	h.st.QueueEntityVars(2, car, NewNameSet("b")) // not ready: ignored
	h.tick(time.Millisecond)
	got := h.wire.take()
	if len(got) != 1 || got[0].name != "b" || got[0].to != 1 {
		t.Fatalf("narrowed resync sent %+v, want only b to 1", got)
	}
}

// TestFilterRunsOnlyAtSetResyncInvalidate counts the Filter callback.
func TestFilterRunsOnlyAtSetResyncInvalidate(t *testing.T) {
	r, lb := newTestRegistry(t)
	calls := 0
	r.Register("owner").SetVehicle().UShort().Filter(func(Ref, any) []PlayerID { calls++; return []PlayerID{1} })
	r.Register("other").SetVehicle().Bool()
	h := newHarness(t, r, lb, []PlayerID{1, 2})
	step := func(what string, want int, fn func()) {
		t.Helper()
		calls = 0
		fn()
		if calls != want {
			t.Errorf("%s: filter ran %d times, want %d", what, calls, want)
		}
	}
	step("set", 1, func() { h.st.Set(h.now, car, "owner", 3) })
	step("unrelated set", 0, func() { h.st.Set(h.now, car, "other", true) })
	step("idle ticks", 0, func() { h.tick(time.Second); h.tick(time.Second) })
	step("resync of two players", 2, func() {
		h.st.QueueEntity(1, car)
		h.st.QueueEntity(2, car)
		h.tick(time.Millisecond)
	})
	step("invalidate queues, the drain evaluates", 2, func() {
		h.st.Invalidate(nil, []Ref{car}, "owner")
		h.tick(time.Millisecond)
	})
	step("invalidate of another key", 0, func() {
		h.st.Invalidate(nil, []Ref{car}, "other")
		h.tick(time.Millisecond)
	})
	step("get", 0, func() { h.st.Get(car, "owner") })
}
