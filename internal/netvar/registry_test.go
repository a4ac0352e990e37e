package netvar

import (
	"errors"
	"testing"

	"dlmp/internal/bits"
)

func TestBuilderChainAndSeal(t *testing.T) {
	r, lb := newTestRegistry(t)
	locked := r.Register("cityrp_VehicleLocked").SetVehicle().Bool().SendPVS().SetHook("CityRP.VehicleLockChanged").Accessor("VehicleLocked")
	r.Register("b_first").SetGlobal().UByte()
	r.Register("a_first").SetPlayer().AutoHook()
	weapon := r.Register("ammo").SetWeapon().UShort()
	s := r.Seal()
	lb.wantLog(t, "SetWeapon", "ammo")
	if weapon.Networked() {
		t.Errorf("a SetWeapon var is networked")
	}
	var names []string
	for _, v := range s.Vars() {
		names = append(names, v.name)
	}
	if got, want := names, []string{"a_first", "b_first", "cityrp_VehicleLocked"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("ids by sorted name: got %v, want %v", got, want)
	}
	if locked.ID() != 2 || s.IDBits() != 2 {
		t.Errorf("got id %d, idBits %d; want 2, 2", locked.ID(), s.IDBits())
	}
	if locked.AccessorTarget() != "Vehicle" || locked.recip != SendPVS || locked.hook != "CityRP.VehicleLockChanged" {
		t.Errorf("builder chain lost settings: %+v", locked)
	}
	if a, _ := s.Lookup("a_first"); a.hook != "CityRP.Network.a_first.Changed" || a.spec.codec != CodecAuto {
		t.Errorf("AutoHook/default codec: got hook %q codec %s", a.hook, a.spec.codec)
	}
	late := r.Register("late").Bool()
	lb.wantLog(t, "after the registry sealed", "late")
	if late.Networked() {
		t.Errorf("a var registered after the seal is networked")
	}
	if _, ok := s.Lookup("late"); ok {
		t.Errorf("the schema holds a var registered after the seal")
	}
}

func TestSealWarnings(t *testing.T) {
	r, lb := newTestRegistry(t)
	none := func(ent Ref, v any) []PlayerID { return nil }
	r.Register("lp_filter").SetLocalPlayer().Bool().Filter(none)
	r.Register("enum_def").Enum([]any{1, 2}).SetDefault(3)
	pred := r.Register("pred").SetPlayer().Bool().Predictable()
	lpPred := r.Register("lp_pred").SetLocalPlayer().Bool().Predictable()
	coScope := r.Register("co_scope").SetEntity().Bool().Debounce(1).ClientOwned()
	coCodec := r.Register("co_codec").SetPlayer().String().Debounce(1).ClientOwned()
	coDeb := r.Register("co_deb").SetPlayer().Bool().ClientOwned()
	coOK := r.Register("co_ok").SetPlayer().Enum([]any{"a", "b"}).Debounce(1).ClientOwned().Predictable()
	coOK2 := r.Register("co_ok2").SetLocalPlayer().String(16).Debounce(0.5, 2).ClientOwned()
	r.Register("nosync_filter").Bool().SetNoSync().Filter(none)
	coCustom := r.Register("co_custom").SetPlayer().Debounce(1).ClientOwned().
		Write(func(w *bits.Writer, v any) { w.WriteBool(v == true) }, 1).
		Read(func(r *bits.Reader) any { return r.ReadBool() }, 1)
	coData := r.Register("co_data").SetPlayer().Data(4).Debounce(1).ClientOwned()
	r.Seal()
	lb.wantLog(t, "WARN", "Filter on a LocalPlayer var is inert", "lp_filter")
	lb.wantLog(t, "WARN", "SetDefault outside the var's Enum", "enum_def")
	lb.wantLog(t, "ERROR", "Predictable is only valid on SetLocalPlayer", "var=pred")
	lb.wantLog(t, "ERROR", "ClientOwned requires SetPlayer", "co_scope")
	lb.wantLog(t, "ERROR", "ClientOwned requires a bounded codec", "co_codec")
	lb.wantLog(t, "ERROR", "ClientOwned requires a Debounce", "co_deb")
	lb.wantLog(t, "WARN", "Predictable on a ClientOwned var is redundant", "co_ok")
	lb.wantLog(t, "WARN", "no revocation path", "nosync_filter")
	if pred.IsPredictable() || !lpPred.IsPredictable() {
		t.Errorf("Predictable: got %v on Player, %v on LocalPlayer; want false, true", pred.IsPredictable(), lpPred.IsPredictable())
	}
	if !coData.IsClientOwned() {
		t.Errorf("Data(4) is bounded: ClientOwned must stay")
	}
	for _, v := range []*Var{coScope, coCodec, coDeb, coCustom} {
		if v.IsClientOwned() {
			t.Errorf("%s: ClientOwned flag not cleared", v.name)
		}
		if !v.Networked() {
			t.Errorf("%s: a cleared flag must leave the var networked", v.name)
		}
	}
	if !coOK.IsClientOwned() || !coOK2.IsClientOwned() {
		t.Errorf("valid ClientOwned vars lost their flag")
	}
	if coOK2.ceiling.Seconds() != 2 || coOK2.debounce.Seconds() != 0.5 {
		t.Errorf("Debounce(0.5, 2): got %v..%v", coOK2.debounce, coOK2.ceiling)
	}
}

func TestMaxBits(t *testing.T) {
	r, _ := newTestRegistry(t)
	b := r.Register("b").SetGlobal().Bool()
	p := r.Register("p").SetPlayer().String(10)
	u := r.Register("u").String()
	s := r.Seal()
	if got, want := b.MaxBits(), KindBits+int(s.IDBits())+2+1; got != want {
		t.Errorf("Global Bool: got %d, want %d", got, want)
	}
	if got, want := p.MaxBits(), KindBits+EntityIDBits+UserIDBits+int(s.IDBits())+2+CodecArgBits+80; got != want {
		t.Errorf("Player String(10): got %d, want %d", got, want)
	}
	if u.MaxBits() != -1 {
		t.Errorf("String(): got %d, want -1 (unbounded)", u.MaxBits())
	}
	// The worst case is an upper bound of a real encoding.
	got := AppendUpdate(nil, s, Target{Ref: PlayerRef(999), UserID: 65535}, p, "0123456789")
	if 8*len(got) < p.MaxBits() || 8*len(got) >= p.MaxBits()+8 {
		t.Errorf("Player String(10) full: %d bytes for a worst case of %d bits", len(got), p.MaxBits())
	}
}

func TestManifestRoundTripAndBind(t *testing.T) {
	srv, _ := newTestRegistry(t)
	srv.Register("both").SetPlayer().UByte().SetDefault(7)
	srv.Register("server_only").SetGlobal().Vector()
	srv.Register("mismatch").Short()
	srv.Register("co").SetPlayer().Bool().Debounce(1).ClientOwned()
	srv.Register("pass").Enum([]any{"grey", "green"})
	ss := srv.Seal()
	m, n, err := DecodeManifest(srv.Manifest())
	if err != nil || n != len(srv.Manifest()) {
		t.Fatalf("DecodeManifest: %v (used %d of %d)", err, n, len(srv.Manifest()))
	}
	if m.Hash != ss.Hash() || m.IDBits != ss.IDBits() || len(m.Entries) != ss.Len() {
		t.Fatalf("manifest header: got %+v", m)
	}
	cl, lb := newTestRegistry(t)
	cl.Register("both").SetPlayer().UByte()
	cl.Register("mismatch").UShort()
	cl.Register("pass").Enum([]any{"grey", "green"})
	cl.Register("co").SetPlayer().Bool()
	cl.Seal()
	cs := cl.Bind(m)
	cl.Bind(m)
	if c := lb.count("synthetic entry"); c != 1 {
		t.Errorf("unknown var logged %d times over two binds, want once", c)
	}
	lb.wantLog(t, "ERROR", "codec differs", "mismatch")
	both, _ := cs.Lookup("both")
	if d, ok := both.Default(); !ok || !Equal(d, 7.0) {
		t.Errorf("manifest default not bound: %v %v", d, ok)
	}
	if co, _ := cs.Lookup("co"); !co.IsClientOwned() {
		t.Errorf("manifest ClientOwned not bound")
	}
	// Every var the server sends decodes on the client.
	vals := map[string]any{"both": 9.0, "server_only": Vector{1, 2, 3}, "mismatch": -4.0, "co": true, "pass": "green"}
	for _, v := range ss.Vars() {
		b := AppendUpdate(nil, ss, Target{Ref: PlayerRef(1), UserID: 1}, v, vals[v.name])
		_, cv, got, err := DecodeUpdate(b, cs)
		if err != nil || cv.name != v.name || !Equal(got, vals[v.name]) {
			t.Errorf("%s: client decoded %v %v (%v)", v.name, cv, got, err)
		}
	}
}

func TestManifestRejects(t *testing.T) {
	srv, _ := newTestRegistry(t)
	srv.Register("a").Bool()
	srv.Register("b").Integer(12)
	srv.Seal()
	good := srv.Manifest()
	for n := range len(good) {
		if _, _, err := DecodeManifest(good[:n]); !errors.Is(err, ErrManifest) {
			t.Errorf("manifest of %d of %d bytes: err = %v, want ErrManifest", n, len(good), err)
		}
	}
	flip := append([]byte(nil), good...)
	flip[3] ^= 0x10
	if _, _, err := DecodeManifest(flip); !errors.Is(err, ErrManifest) {
		t.Errorf("flipped bit: err = %v, want ErrManifest", err)
	}
	// Unsorted names are refused even with a valid hash.
	w := bits.NewWriter([]byte{ManifestVersion})
	w.WriteBits(1, idBitsBits)
	w.WriteBits(2, manifestCountBits)
	for _, name := range []string{"b", "a"} {
		writeCString(&w, name)
		w.WriteBits(0, ScopeBits)
		w.WriteBits(uint64(CodecBool), CodecBits)
		w.WriteBits(0, CodecArgBits)
		w.WriteBits(0, 2)
	}
	b := w.Bytes()
	b = append(b, 0, 0, 0, 0)
	h := manifestHash(b[:len(b)-4])
	b[len(b)-4], b[len(b)-3], b[len(b)-2], b[len(b)-1] = byte(h), byte(h>>8), byte(h>>16), byte(h>>24)
	if _, _, err := DecodeManifest(b); !errors.Is(err, ErrManifest) || !contains(err.Error(), "sorted") {
		t.Errorf("unsorted manifest: err = %v, want a sorted-names error", err)
	}
}

func FuzzDecodeManifest(f *testing.F) {
	srv := NewRegistry()
	srv.SetLogger(discard())
	srv.Register("a").Bool().SetDefault(true)
	srv.Register("b").Table().SetDefault(Table{"x": 1.0})
	srv.Register("c").String(9)
	srv.Seal()
	f.Add(srv.Manifest())
	f.Fuzz(func(t *testing.T, in []byte) {
		m, n, err := DecodeManifest(in)
		if err != nil {
			return
		}
		if n > len(in) {
			t.Fatalf("used %d of %d bytes", n, len(in))
		}
		cl := NewRegistry()
		cl.SetLogger(discard())
		if s := cl.Bind(m); s.Len() != len(m.Entries) {
			t.Fatalf("bound %d vars of %d", s.Len(), len(m.Entries))
		}
	})
}
