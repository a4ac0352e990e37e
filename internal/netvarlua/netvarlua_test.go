package netvarlua

import (
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// world is a netvar.World with every player streamed every entity.
type world struct{ players []netvar.PlayerID }

func (w *world) Players() []netvar.PlayerID              { return w.players }
func (w *world) UserID(p netvar.PlayerID) uint32         { return uint32(p) + 100 }
func (w *world) StreamedTo(netvar.Ref) []netvar.PlayerID { return w.players }
func (w *world) Place(netvar.Ref) (netvar.Place, bool)   { return netvar.Place{}, false }

// sent is one decoded entry a player received.
type sent struct {
	to    netvar.PlayerID
	ent   netvar.Ref
	name  string
	value any
}

// fixture is a VM with entity handles, a registry, and after seal a store.
type fixture struct {
	t       *testing.T
	L       *lua.LState
	reg     *netvar.Registry
	b       *Binding
	st      *netvar.Store
	w       *world
	got     []sent
	hooks   []string
	methods map[string]*lua.LTable
	handles map[netvar.Ref]*lua.LUserData
}

func newFixture(t *testing.T, script string) *fixture {
	t.Helper()
	f := &fixture{t: t, L: lua.NewState(), reg: netvar.NewRegistry(), w: &world{players: []netvar.PlayerID{1, 2, 3}},
		methods: map[string]*lua.LTable{}, handles: map[netvar.Ref]*lua.LUserData{}}
	t.Cleanup(f.L.Close)
	f.reg.SetLogger(quiet)
	metas := map[netvar.Kind]*lua.LTable{}
	for _, k := range []struct {
		target string
		kind   netvar.Kind
	}{{"Entity", netvar.KindObject}, {"Player", netvar.KindPlayer}, {"Vehicle", netvar.KindVehicle}} {
		m := f.L.NewTable()
		f.methods[k.target] = m
		meta := f.L.NewTable()
		meta.RawSetString("__index", m)
		metas[k.kind] = meta
	}
	// Player and Vehicle fall through to Entity, as in GMod.
	for _, t := range []string{"Player", "Vehicle"} {
		mt := f.L.NewTable()
		mt.RawSetString("__index", f.methods["Entity"])
		f.L.SetMetatable(f.methods[t], mt)
	}
	handle := func(r netvar.Ref) *lua.LUserData {
		if ud := f.handles[r]; ud != nil {
			return ud
		}
		ud := f.L.NewUserData()
		ud.Value = r
		ud.Metatable = metas[r.Kind]
		f.handles[r] = ud
		return ud
	}
	env := Env{
		Now: func() time.Time { return t0 },
		Ref: func(v lua.LValue) (netvar.Ref, bool) {
			ud, ok := v.(*lua.LUserData)
			if !ok {
				return netvar.Ref{}, false
			}
			r, ok := ud.Value.(netvar.Ref)
			return r, ok
		},
		Handle:  func(r netvar.Ref) lua.LValue { return handle(r) },
		Methods: func(target string) *lua.LTable { return f.methods[target] },
		Hook: func(name string, args ...lua.LValue) {
			f.hooks = append(f.hooks, name+" "+args[1].String()+" "+args[2].String())
		},
		Log: quiet,
	}
	dlmp := f.L.NewTable()
	f.L.SetGlobal("dlmp", dlmp)
	f.b = Install(f.L, dlmp, f.reg, env)
	for _, p := range f.w.players {
		f.L.SetGlobal("p"+string(rune('0'+p)), handle(netvar.PlayerRef(uint16(p))))
	}
	f.L.SetGlobal("car", handle(netvar.Ref{Kind: netvar.KindVehicle, ID: 7}))
	f.L.SetGlobal("box", handle(netvar.Ref{Kind: netvar.KindObject, ID: 9}))
	if err := f.L.DoString(script); err != nil {
		t.Fatalf("registration script: %v", err)
	}
	f.reg.Seal()
	st, err := netvar.NewStore(f.reg, f.w, f.send, netvar.Config{})
	if err != nil {
		t.Fatal(err)
	}
	f.st = st
	f.b.Attach(st)
	return f
}

func (f *fixture) send(to netvar.PlayerID, m netvar.Message, payload []byte) {
	s := f.st.Schema()
	collect := func(t netvar.Target, v *netvar.Var, value any) {
		f.got = append(f.got, sent{to, t.Ref, v.Name(), value})
	}
	switch m {
	case netvar.MsgUpdate:
		t, v, value, err := netvar.DecodeUpdate(payload, s)
		if err != nil {
			f.t.Fatalf("update does not decode: %v", err)
		}
		collect(t, v, value)
	case netvar.MsgResync:
		if err := netvar.DecodeResync(payload, s, collect); err != nil {
			f.t.Fatalf("resync does not decode: %v", err)
		}
	}
}

func (f *fixture) run(code string) {
	f.t.Helper()
	if err := f.L.DoString(code); err != nil {
		f.t.Fatalf("%s: %v", code, err)
	}
}

func (f *fixture) take() []sent {
	g := f.got
	f.got = nil
	return g
}

// The registrations of the builder test, in Lua and in Go.
const luaVars = `
local n = dlmp.network
n.Register("VehicleLocked"):SetVehicle():Bool():SendPVS():SetHook("VehicleLockChanged"):Accessor("Locked")
n.Register("Rank"):SetPlayer():Enum({1, 2, 3, 4}):Accessor("Rank")
n.Register("pass"):Enum({"grey", "green", "blue"})
n.Register("svrank"):SetPlayer():String(16):SetDefault("user"):Filter(function(ent, v) return {p1} end)
n.Register("F1Open"):SetPlayer():Bool():Accessor("F1Open"):ClientOwned():Debounce(1, 4):SetDefault(false)
n.Register("Stamina"):SetLocalPlayer():UByte():Accessor("Stamina"):Predictable()
n.Register("Weather"):SetGlobal():UInteger(5):SendPAS()
n.Register("Pos"):SetEntity():Vector():SendOmit(function() return nil end):SetNoSync()
n.Register("Tint"):Color():Integer(3):Nibble():UNibble():Byte():Short():UShort():Int():UInt():Float():Double():Long()
n.Register("Blob"):Data(8):Normal():Angle():Entity():Player():Table():Auto():String():Bit()
n.Register("Knife"):SetWeapon():Bool()
`

func goVars(r *netvar.Registry) {
	r.Register("VehicleLocked").SetVehicle().Bool().SendPVS().SetHook("VehicleLockChanged").Accessor("Locked")
	r.Register("Rank").SetPlayer().Enum([]any{1, 2, 3, 4}).Accessor("Rank")
	r.Register("pass").Enum([]any{"grey", "green", "blue"})
	r.Register("svrank").SetPlayer().String(16).SetDefault("user").Filter(func(netvar.Ref, any) []netvar.PlayerID { return []netvar.PlayerID{1} })
	r.Register("F1Open").SetPlayer().Bool().Accessor("F1Open").ClientOwned().Debounce(1, 4).SetDefault(false)
	r.Register("Stamina").SetLocalPlayer().UByte().Accessor("Stamina").Predictable()
	r.Register("Weather").SetGlobal().UInteger(5).SendPAS()
	r.Register("Pos").SetEntity().Vector().SendOmit(func(netvar.Ref, any) []netvar.PlayerID { return nil }).SetNoSync()
	r.Register("Tint").Color().Integer(3).Nibble().UNibble().Byte().Short().UShort().Int().UInt().Float().Double().Long()
	r.Register("Blob").Data(8).Normal().Angle().Entity().Player().Table().Auto().String().Bit()
	r.Register("Knife").SetWeapon().Bool()
}

func TestBuilderChainMatchesGo(t *testing.T) {
	f := newFixture(t, luaVars)
	g := netvar.NewRegistry()
	g.SetLogger(quiet)
	goVars(g)
	g.Seal()
	if string(f.reg.Manifest()) != string(g.Manifest()) {
		t.Fatalf("the Lua chain's manifest differs from the Go chain's:\n%x\n%x", f.reg.Manifest(), g.Manifest())
	}
	gs, err := netvar.NewStore(g, f.w, func(netvar.PlayerID, netvar.Message, []byte) {}, netvar.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.st.Dump(), gs.Dump(); got != want {
		t.Fatalf("dumps differ (recipients, filters, debounce):\nlua:\n%s\ngo:\n%s", got, want)
	}
	for _, name := range []string{"VehicleLocked", "Rank", "F1Open", "Stamina"} {
		lv, _ := f.reg.Lookup(name)
		gv, _ := g.Lookup(name)
		if lv.AccessorName() != gv.AccessorName() || lv.Hook() != gv.Hook() || lv.IsPredictable() != gv.IsPredictable() {
			t.Errorf("%s: accessor/hook/predictable differ between Lua and Go", name)
		}
	}
	if v, ok := f.reg.Lookup("Knife"); !ok || v.Networked() {
		t.Error("SetWeapon was not refused")
	}
}

func TestSetGetHooksAndAccessors(t *testing.T) {
	f := newFixture(t, `
local n = dlmp.network
changes = {}
n.Register("locked"):SetVehicle():Bool():SetHook(function(ent, new, old, predicted)
	changes[#changes + 1] = tostring(ent == car) .. " " .. tostring(new) .. " " .. tostring(old) .. " " .. tostring(predicted)
end):Accessor("Locked")
n.Register("job"):SetPlayer():String(16):SetHook("JobChanged"):SetDefault("none")
n.Register("color"):SetVehicle():Color()
n.Register("weather"):SetGlobal():UByte():Accessor("Weather")
`)
	f.st.Handshake(1)
	f.take()
	f.run(`
assert(car:SetNetVar("locked", true) == true)
assert(car:GetNetVar("locked") == true)
assert(car:GetLocked() == true)
assert(car:SetLocked(false) == true)
assert(p2:GetNetVar("job") == "none", "the default")
assert(box:GetNetVar("missing", 5) == 5, "the fallback of an unknown var")
assert(p2:SetNetVar("job", "cop"))
assert(car:SetNetVar("color", {r = 10, g = 20, b = 30}))
local c = car:GetNetVar("color")
assert(c.r == 10 and c.g == 20 and c.b == 30 and c.a == 255)
assert(dlmp.network.SetGlobal("weather", 7))
assert(dlmp.network.GetGlobal("weather") == 7)
assert(box:GetWeather() == 7, "a Global accessor on Entity")
assert(car:SetNetVar("nope", 1) == false, "an unknown var is a logged false, not an error")
assert(dlmp.network.SetGlobal("job", "x") == false, "the wrong scope")
`)
	changes := f.L.GetGlobal("changes").(*lua.LTable)
	var got []string
	for i := 1; i <= changes.Len(); i++ {
		got = append(got, changes.RawGetInt(i).String())
	}
	if want := []string{"true true nil false", "true false true false"}; !slices.Equal(got, want) {
		t.Errorf("Lua hook calls %q, want %q", got, want)
	}
	if want := []string{"JobChanged cop none"}; !slices.Equal(f.hooks, want) {
		t.Errorf("named hooks %q, want %q", f.hooks, want)
	}
	var names []string
	for _, s := range f.take() {
		if s.to != 1 {
			t.Errorf("sent to %d, only player 1 is ready", s.to)
		}
		names = append(names, s.name)
	}
	if want := []string{"locked", "locked", "job", "color", "weather"}; !slices.Equal(names, want) {
		t.Errorf("updates %q, want %q", names, want)
	}
}

func TestFilterInvalidateAndWaitForPlayer(t *testing.T) {
	f := newFixture(t, `
allowed = {}
dlmp.network.Register("secret"):SetVehicle():String(16):Filter(function(ent, value) return allowed end)
dlmp.network.Register("broken"):SetVehicle():Bool():Filter(function() error("boom") end)
`)
	f.st.Handshake(1)
	f.st.Handshake(2)
	f.take()
	f.run(`allowed = {p2}; car:SetNetVar("secret", "s3cr3t")`)
	got := f.take()
	if len(got) != 1 || got[0].to != 2 || got[0].value != "s3cr3t" {
		t.Fatalf("a Lua Filter of {p2} sent %+v", got)
	}
	f.run(`car:SetNetVar("broken", true)`)
	if got := f.take(); len(got) != 0 {
		t.Fatalf("a failing filter sent %+v, want nothing", got)
	}
	// p2 loses eligibility, p1 gains it: one Invalidate for everyone.
	f.run(`allowed = {p1}; assert(dlmp.network.Invalidate(nil, car, "secret"))`)
	f.st.Tick(t0)
	got = f.take()
	slices.SortFunc(got, func(a, b sent) int { return int(a.to) - int(b.to) })
	if len(got) != 2 || got[0].to != 1 || got[0].value != "s3cr3t" || got[1].to != 2 || got[1].value != nil {
		t.Fatalf("after Invalidate: %+v, want the value to 1 and a revoke to 2", got)
	}
	if ok := f.L.DoString(`assert(dlmp.network.Invalidate(p1, car) == false)`); ok != nil {
		t.Errorf("Invalidate without a key: %v, want a logged false", ok)
	}
	f.run(`
ran = {}
dlmp.network.WaitForPlayer(p3, function(ply) ran[#ran + 1] = (ply == p3) end)
dlmp.network.WaitForPlayer(p1, function(ply) ran[#ran + 1] = (ply == p1) end)
`)
	if n := f.L.GetGlobal("ran").(*lua.LTable).Len(); n != 1 {
		t.Fatalf("%d WaitForPlayer callbacks ran before p3's handshake, want 1 (p1's)", n)
	}
	f.st.Handshake(3)
	if n := f.L.GetGlobal("ran").(*lua.LTable).Len(); n != 2 {
		t.Fatalf("%d WaitForPlayer callbacks after p3's handshake, want 2", n)
	}
	if err := f.L.DoString(`dlmp.network.Register("c"):Write(function() end)`); err == nil {
		t.Error("a Lua custom codec was accepted")
	}
}
