package wire

import (
	"math"
	"testing"
)

func validPickupSync() Packet {
	return &PickupSync{
		EventID: 41, PickupID: 3, Active: 1, Model: 1240,
		X: 2495.5, Y: -1687.25, Z: 13.5, Scale: 1, Highlight: 1, Rev: 2,
	}
}

func pickupHide(p Packet) {
	q := p.(*PickupSync)
	q.Active = 0
	q.Model = 0xFFFFFFFF
	q.X, q.Y, q.Z = fNaN, fInf, -fInf
	q.Scale = fNaN
}

func TestPickupSyncExample(t *testing.T) {
	checkExample(t, "pickup_sync.bin", validPickupSync())
	checkTruncated(t, validPickupSync().Append(nil), func() Packet { return new(PickupSync) })
}

// pickupShowCases are the rules both sides apply to a show.
func pickupShowCases() []ruleCase {
	set := func(f func(q *PickupSync)) func(Packet) { return func(p Packet) { f(p.(*PickupSync)) } }
	return []ruleCase{
		{"active 0", set(func(q *PickupSync) { q.Active = 0 }), ""},
		{"active 2", set(func(q *PickupSync) { q.Active = 2 }), "active"},
		{"active 255", set(func(q *PickupSync) { q.Active = 255 }), "active"},
		{"highlight 0", set(func(q *PickupSync) { q.Highlight = 0 }), ""},
		{"highlight 2", set(func(q *PickupSync) { q.Highlight = 2 }), "highlight"},
		{"hide with highlight 2", set(func(q *PickupSync) { pickupHide(q); q.Highlight = 2 }), "highlight"},
		{"hide with NaN garbage", pickupHide, ""},
		{"x 4095", set(func(q *PickupSync) { q.X = 4095 }), ""},
		{"x -4095", set(func(q *PickupSync) { q.X = -4095 }), ""},
		{"x past 4095", set(func(q *PickupSync) { q.X = justPast(4095) }), "x"},
		{"x past -4095", set(func(q *PickupSync) { q.X = justPast(-4095) }), "x"},
		{"x NaN", set(func(q *PickupSync) { q.X = fNaN }), "x"},
		{"x +Inf", set(func(q *PickupSync) { q.X = fInf }), "x"},
		{"x -Inf", set(func(q *PickupSync) { q.X = -fInf }), "x"},
		{"y 4095", set(func(q *PickupSync) { q.Y = 4095 }), ""},
		{"y -4095", set(func(q *PickupSync) { q.Y = -4095 }), ""},
		{"y past 4095", set(func(q *PickupSync) { q.Y = justPast(4095) }), "y"},
		{"y past -4095", set(func(q *PickupSync) { q.Y = justPast(-4095) }), "y"},
		{"y NaN", set(func(q *PickupSync) { q.Y = fNaN }), "y"},
		{"y +Inf", set(func(q *PickupSync) { q.Y = fInf }), "y"},
		{"y -Inf", set(func(q *PickupSync) { q.Y = -fInf }), "y"},
		{"z 4000", set(func(q *PickupSync) { q.Z = 4000 }), ""},
		{"z -200", set(func(q *PickupSync) { q.Z = -200 }), ""},
		{"z past 4000", set(func(q *PickupSync) { q.Z = justPast(4000) }), "z"},
		{"z past -200", set(func(q *PickupSync) { q.Z = justPast(-200) }), "z"},
		{"z NaN", set(func(q *PickupSync) { q.Z = fNaN }), "z"},
		{"z +Inf", set(func(q *PickupSync) { q.Z = fInf }), "z"},
		{"z -Inf", set(func(q *PickupSync) { q.Z = -fInf }), "z"},
		{"scale 0.1", set(func(q *PickupSync) { q.Scale = 0.1 }), ""},
		{"scale 10", set(func(q *PickupSync) { q.Scale = 10 }), ""},
		{"scale below 0.1", set(func(q *PickupSync) { q.Scale = towardZero(0.1) }), "scale"},
		{"scale past 10", set(func(q *PickupSync) { q.Scale = justPast(10) }), "scale"},
		{"scale 0", set(func(q *PickupSync) { q.Scale = 0 }), "scale"},
		{"scale -1", set(func(q *PickupSync) { q.Scale = -1 }), "scale"},
		{"scale NaN", set(func(q *PickupSync) { q.Scale = fNaN }), "scale"},
		{"scale +Inf", set(func(q *PickupSync) { q.Scale = fInf }), "scale"},
		{"scale -Inf", set(func(q *PickupSync) { q.Scale = -fInf }), "scale"},
	}
}

// pickupModelCases: the server checks the model on every show; the client
// decoder does not (it checks before placing).
func pickupModelCases(serverField string) []ruleCase {
	model := func(m uint32) func(Packet) { return func(p Packet) { p.(*PickupSync).Model = m } }
	return []ruleCase{
		{"model 321 (first weapon model)", model(321), ""},
		{"model 373 (last weapon model)", model(373), ""},
		{"model 1239", model(1239), ""},
		{"model 19999 (last of the table)", model(MaxModel), ""},
		{"model 320", model(320), serverField},
		{"model 329 (no such weapon model)", model(329), serverField},
		{"model 374", model(374), serverField},
		{"model 0 (ped)", model(0), serverField},
		{"model 311 (ped)", model(311), serverField},
		{"model 400 (vehicle)", model(400), serverField},
		{"model 611 (vehicle)", model(611), serverField},
		{"model 20000", model(MaxModel + 1), serverField},
		{"model 0xFFFFFFFF", model(math.MaxUint32), serverField},
		{"hide with model 0", func(p Packet) { pickupHide(p); p.(*PickupSync).Model = 0 }, ""},
	}
}

func TestPickupSyncRules(t *testing.T) {
	checkRules(t, "server", validPickupSync, send, append(pickupShowCases(), pickupModelCases("model")...))
	checkRules(t, "client", validPickupSync, recv, append(pickupShowCases(), pickupModelCases("")...))
}

func TestPickupSyncPlacement(t *testing.T) {
	cases := []struct {
		name    string
		change  func(q *PickupSync)
		x, y, z int16
		field   string // non-empty: Placement fails naming it
	}{
		{"example", func(q *PickupSync) {}, 19964, -13498, 108, ""},
		{"bounds high", func(q *PickupSync) { q.X, q.Y, q.Z = 4095, 4095, 4000 }, 32760, 32760, 32000, ""},
		{"bounds low", func(q *PickupSync) { q.X, q.Y, q.Z = -4095, -4095, -200 }, -32760, -32760, -1600, ""},
		{"half step rounds away from zero", func(q *PickupSync) { q.X, q.Y, q.Z = 0.0625, -0.0625, 0.06 }, 1, -1, 0, ""},
		{"weapon model", func(q *PickupSync) { q.Model = 356 }, 19964, -13498, 108, ""},
		{"hide", func(q *PickupSync) { q.Active = 0 }, 0, 0, 0, "active"},
		{"vehicle model", func(q *PickupSync) { q.Model = 411 }, 0, 0, 0, "model"},
		{"x past 4095", func(q *PickupSync) { q.X = justPast(4095) }, 0, 0, 0, "x"},
		{"y NaN", func(q *PickupSync) { q.Y = fNaN }, 0, 0, 0, "y"},
		{"z past -200", func(q *PickupSync) { q.Z = justPast(-200) }, 0, 0, 0, "z"},
	}
	for _, c := range cases {
		q := validPickupSync().(*PickupSync)
		c.change(q)
		x, y, z, err := q.Placement()
		if c.field != "" {
			if e, ok := err.(*Error); !ok || e.Field != c.field {
				t.Errorf("%s: err = %v, want an *Error naming %q", c.name, err, c.field)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if x != c.x || y != c.y || z != c.z {
			t.Errorf("%s: got (%d, %d, %d), want (%d, %d, %d)", c.name, x, y, z, c.x, c.y, c.z)
		}
	}
}

func FuzzPickupSync(f *testing.F) {
	f.Add(validPickupSync().Append(nil))
	hide := validPickupSync()
	pickupHide(hide)
	f.Add(hide.Append(nil))
	f.Add([]byte{IDPickupSync, 1, 0, 0, 0, 2, 0, 0, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, func() Packet { return new(PickupSync) })
		p := new(PickupSync)
		if _, err := p.Parse(data); err == nil && p.CheckRecv() == nil && p.Active == 1 {
			// A show the decoder accepts is placeable whenever its model is.
			if _, _, _, err := p.Placement(); err != nil && (p.Model <= MaxModel && IsObjectModel(int(p.Model))) {
				t.Fatalf("accepted show with object model %d not placeable: %v", p.Model, err)
			}
		}
	})
}

func BenchmarkPickupSync(b *testing.B) {
	benchCodec(b, validPickupSync(), func() Packet { return new(PickupSync) })
}

// TestPickupSyncHideDecodes: a remove whose unused fields are garbage, NaN
// included, goes through the whole decoder, and its bytes come back intact.
func TestPickupSyncHideDecodes(t *testing.T) {
	hide := validPickupSync()
	pickupHide(hide)
	enc := hide.Append(nil)
	p, err := Unmarshal(enc)
	if err != nil {
		t.Fatalf("Unmarshal of a hide with NaN garbage: %v", err)
	}
	q := p.(*PickupSync)
	if q.Active != 0 || q.PickupID != 3 || !math.IsNaN(float64(q.X)) || !math.IsNaN(float64(q.Scale)) {
		t.Errorf("decoded %+v, want active 0, pickup_id 3, NaN x and scale", q)
	}
	if re := q.Append(nil); string(re) != string(enc) {
		t.Errorf("re-encode differs\n got %x\nwant %x", re, enc)
	}
	enc[len(enc)-5] = 2 // highlight
	if _, err := Unmarshal(enc); err == nil {
		t.Error("hide with highlight 2 decoded, want dropped")
	}
}
