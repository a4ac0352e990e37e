package wire

import "testing"

func validGiveWeapon() Packet { return &GiveWeapon{EventID: 8, Weapon: 31, Ammo: 500} }

func TestGiveWeaponExample(t *testing.T) {
	checkExample(t, "give_weapon.bin", validGiveWeapon())
	checkTruncated(t, validGiveWeapon().Append(nil), func() Packet { return new(GiveWeapon) })
}

func TestGiveWeaponRules(t *testing.T) {
	cases := []ruleCase{
		{"weapon 0", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 0 }, ""},
		{"weapon 18", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 18 }, ""},
		{"weapon 19", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 19 }, "weapon"},
		{"weapon 20", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 20 }, "weapon"},
		{"weapon 21", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 21 }, "weapon"},
		{"weapon 22", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 22 }, ""},
		{"weapon 46", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 46 }, ""},
		{"weapon 47", func(q Packet) { p := q.(*GiveWeapon); p.Weapon = 47 }, "weapon"},
		{"ammo 0", func(q Packet) { p := q.(*GiveWeapon); p.Ammo = 0 }, ""},
		{"ammo max", func(q Packet) { p := q.(*GiveWeapon); p.Ammo = 65535 }, ""},
	}
	checkRules(t, "server", validGiveWeapon, send, cases)
	checkRules(t, "client", validGiveWeapon, recv, cases)
}

func FuzzGiveWeapon(f *testing.F) {
	f.Add(validGiveWeapon().Append(nil))
	f.Add(make([]byte, validGiveWeapon().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(GiveWeapon) }) })
}

func BenchmarkGiveWeapon(b *testing.B) {
	benchCodec(b, validGiveWeapon(), func() Packet { return new(GiveWeapon) })
}
