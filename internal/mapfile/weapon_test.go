package mapfile

import (
	"strings"
	"testing"

	"dlmp/internal/wire"
)

func TestWeaponModels(t *testing.T) {
	seen := map[int]int{}
	n := 0
	for w := -1; w <= 47; w++ {
		m, ok := WeaponModel(w)
		if !ok {
			continue
		}
		n++
		if !wire.IsWeaponModel(m) {
			t.Errorf("weapon %d: model %d is not a weapon model of the table", w, m)
		}
		if other, dup := seen[m]; dup {
			t.Errorf("weapon %d: model %d is weapon %d's too", w, m, other)
		}
		seen[m] = w
		if back, ok := ModelWeapon(m); !ok || back != w {
			t.Errorf("ModelWeapon(%d): got %d, %v, want %d", m, back, ok, w)
		}
	}
	if n != 43 {
		t.Errorf("got %d weapons with a model, want 43 (1..18, 22..46)", n)
	}
	for _, w := range []int{-1, 0, 19, 20, 21, 47} {
		if m, ok := WeaponModel(w); ok {
			t.Errorf("WeaponModel(%d): got %d, want none", w, m)
		}
	}
	// The table's names agree on a few well-known ones.
	for w, name := range map[int]string{1: "Brass_Knuckles", 24: "Desert_Eagle", 30: "AK47", 31: "M4",
		32: "Tec-9", 34: "Sniper_Rifle", 38: "Minigun", 46: "Parachute"} {
		m, _ := WeaponModel(w)
		if got := wire.ModelName(m); !strings.EqualFold(got, name) {
			t.Errorf("weapon %d: model %d is named %q, want %q", w, m, got, name)
		}
	}
	if _, ok := ModelWeapon(0); ok {
		t.Error("ModelWeapon(0): got a weapon, want none")
	}
}
