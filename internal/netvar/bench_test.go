package netvar

import (
	"fmt"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// typical is a (name, value) pair as a gamemode sets it, on its owner.
type typical struct {
	name  string
	reg   func(*Var) *Var
	owner Ref
	value any
	mp    any // the value as a FiveM resource would put it in a state bag
}

var typicals = []typical{
	{"cityrp_VehicleLocked", func(v *Var) *Var { return v.SetVehicle().Bool().SendPVS() }, Ref{KindVehicle, 1234}, true, true},
	{"cityrp_Job", func(v *Var) *Var { return v.SetPlayer().String(32) }, PlayerRef(12), "Police Officer", "Police Officer"},
	{"cityrp_Rank", func(v *Var) *Var { return v.SetPlayer().Enum([]any{1, 2, 3, 4}) }, PlayerRef(12), 3.0, 3},
	{"WeatherState", func(v *Var) *Var { return v.SetGlobal().UByte() }, Ref{}, 2.0, 2},
	{"cityrp_VehicleColor", func(v *Var) *Var { return v.SetVehicle().Color() }, Ref{KindVehicle, 1234}, Color{200, 30, 30, 255}, []uint8{200, 30, 30, 255}},
	{"cityrp_Hunger", func(v *Var) *Var { return v.SetLocalPlayer().Float() }, PlayerRef(12), 73.5, 73.5},
	{"cityrp_Waypoint", func(v *Var) *Var { return v.SetPlayer().Vector() }, PlayerRef(12), Vector{1234.5, -567.25, 13}, []float32{1234.5, -567.25, 13}},
}

// benchSchema registers the typical vars among 60 others (a plausible
// gamemode: 7-bit ids).
func benchSchema(tb testing.TB) (*Schema, []*Var) {
	tb.Helper()
	r := NewRegistry()
	r.SetLogger(discard())
	for i := range 60 {
		r.Register(fmt.Sprintf("filler_%02d", i)).Bool()
	}
	vars := make([]*Var, len(typicals))
	for i, c := range typicals {
		vars[i] = c.reg(r.Register(c.name))
	}
	s := r.Seal()
	for i, c := range typicals {
		out, _, err := vars[i].spec.check(c.value)
		if err != nil {
			tb.Fatal(err)
		}
		typicals[i].value = out
	}
	return s, vars
}

// stateBagName is FiveM's bag name for an owner.
func stateBagName(o Ref) string {
	switch o.Kind {
	case KindNone:
		return "global"
	case KindPlayer:
		return fmt.Sprintf("player:%d", o.ID)
	}
	return fmt.Sprintf("entity:%d", o.ID)
}

// appendStateBag models FiveM's state bag update (msgStateBag): the bag
// name and the key, each u16-length-prefixed, then the msgpack value. The
// message type is left out, as ours is.
func appendStateBag(b []byte, bag, key string, value any) ([]byte, error) {
	b = append(b, byte(len(bag)), byte(len(bag)>>8))
	b = append(b, bag...)
	b = append(b, byte(len(key)), byte(len(key)>>8))
	b = append(b, key...)
	mp, err := msgpack.Marshal(value)
	return append(b, mp...), err
}

// TestBytesVsMsgpack: the goal is at most a third of the state bag bytes
// over the typical mix.
func TestBytesVsMsgpack(t *testing.T) {
	s, vars := benchSchema(t)
	total, totalMP := 0, 0
	for i, c := range typicals {
		ours := len(AppendUpdate(nil, s, Target{Ref: c.owner, UserID: 4321}, vars[i], c.value))
		mp, err := appendStateBag(nil, stateBagName(c.owner), c.name, c.mp)
		if err != nil {
			t.Fatal(err)
		}
		total += ours
		totalMP += len(mp)
		t.Logf("%-22s %-24s netvar %3d B  state bag %3d B  ratio %.2f", c.name, fmt.Sprint(c.value), ours, len(mp), float64(ours)/float64(len(mp)))
		if ours >= len(mp) {
			t.Errorf("%s: %d bytes, no smaller than the state bag's %d", c.name, ours, len(mp))
		}
	}
	t.Logf("total netvar %d B, state bag %d B, ratio %.3f", total, totalMP, float64(total)/float64(totalMP))
	// A string value is its own bytes on both sides, so the goal holds
	// over the mix, not for every pair.
	if 3*total > totalMP {
		t.Errorf("total %d bytes, more than a third of the state bags' %d", total, totalMP)
	}
}

func BenchmarkUpdateBytes(b *testing.B) {
	s, vars := benchSchema(b)
	buf := make([]byte, 0, 256)
	b.Run("netvar", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			n = 0
			for i, c := range typicals {
				buf = AppendUpdate(buf[:0], s, Target{Ref: c.owner, UserID: 4321}, vars[i], c.value)
				n += len(buf)
			}
		}
		b.ReportMetric(float64(n)/float64(len(typicals)), "B/update")
	})
	b.Run("msgpack-statebag", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			n = 0
			for _, c := range typicals {
				buf, _ = appendStateBag(buf[:0], stateBagName(c.owner), c.name, c.mp)
				n += len(buf)
			}
		}
		b.ReportMetric(float64(n)/float64(len(typicals)), "B/update")
	})
}

func BenchmarkUpdate(b *testing.B) {
	s, vars := benchSchema(b)
	c, v := typicals[1], vars[1] // cityrp_Job, a String(32) on a player
	buf := AppendUpdate(nil, s, Target{Ref: c.owner, UserID: 4321}, v, c.value)
	mp, _ := appendStateBag(nil, stateBagName(c.owner), c.name, c.mp)
	b.Run("encode/netvar", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = AppendUpdate(buf[:0], s, Target{Ref: c.owner, UserID: 4321}, v, c.value)
		}
	})
	b.Run("encode/msgpack-statebag", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mp, _ = appendStateBag(mp[:0], stateBagName(c.owner), c.name, c.mp)
		}
	})
	b.Run("decode/netvar", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, _, err := DecodeUpdate(buf, s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/msgpack-statebag", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var x any
			bag := int(mp[0])
			key := int(mp[2+bag])
			_ = string(mp[2 : 2+bag])
			_ = string(mp[4+bag : 4+bag+key])
			if err := msgpack.Unmarshal(mp[4+bag+key:], &x); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkResync5: one player's group of five vars.
func BenchmarkResync5(b *testing.B) {
	s, vars := benchSchema(b)
	pick := []int{0, 2, 4, 5, 6}
	owner := PlayerRef(12)
	var payload []byte
	rw := NewResyncWriter(s, DefaultSyncBytes, func(p []byte) { payload = p })
	write := func() {
		rw.Group(Target{Ref: owner, UserID: 4321})
		for _, i := range pick {
			rw.Entry(vars[i], typicals[i].value)
		}
		rw.Flush()
	}
	write()
	mpMap := map[string]any{}
	for _, i := range pick {
		mpMap[typicals[i].name] = typicals[i].mp
	}
	mp, _ := msgpack.Marshal(mpMap)
	b.Logf("resync of 5: netvar %d B, msgpack map %d B", len(payload), len(mp))
	b.Run("encode/netvar", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			write()
		}
		b.ReportMetric(float64(len(payload)), "B/msg")
	})
	b.Run("encode/msgpack-map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			mp, _ = msgpack.Marshal(mpMap)
		}
		b.ReportMetric(float64(len(mp)), "B/msg")
	})
	b.Run("decode/netvar", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := DecodeResync(payload, s, func(Target, *Var, any) {}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/msgpack-map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var x map[string]any
			if err := msgpack.Unmarshal(mp, &x); err != nil {
				b.Fatal(err)
			}
		}
	})
}
