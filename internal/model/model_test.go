package model

import "testing"

func TestCounts(t *testing.T) {
	got := Table()
	want := Counts{Objects: 15768, Weapons: 50, Breakable: 303, SAMP: 1430}
	if got != want {
		t.Fatalf("Table() = %+v, want %+v", got, want)
	}
}

func TestKinds(t *testing.T) {
	tests := []struct {
		id                            int
		object, weapon, breaks, sampd bool
	}{
		{id: -1},
		{id: 0},   // ped
		{id: 311}, // ped
		{id: 411}, // vehicle (Infernus)
		{id: 320}, // below the first weapon model
		{id: 321, object: true, weapon: true},
		{id: 329}, // no such weapon model
		{id: 332}, // no such weapon model
		{id: 340}, // no such weapon model
		{id: 373, object: true, weapon: true},
		{id: 1242, object: true}, // armour pickup
		{id: 1240, object: true}, // health pickup
		{id: 19999, object: true, sampd: true},
		{id: 20000},
	}
	for _, tt := range tests {
		if got := IsObject(tt.id); got != tt.object {
			t.Errorf("IsObject(%d) = %v, want %v", tt.id, got, tt.object)
		}
		if got := IsWeapon(tt.id); got != tt.weapon {
			t.Errorf("IsWeapon(%d) = %v, want %v", tt.id, got, tt.weapon)
		}
		if got := IsSAMP(tt.id); got != tt.sampd {
			t.Errorf("IsSAMP(%d) = %v, want %v", tt.id, got, tt.sampd)
		}
	}
	if !IsPed(0) || !IsPed(311) || IsPed(312) || !IsVehicle(400) || !IsVehicle(611) || IsVehicle(612) {
		t.Error("ped/vehicle ranges wrong")
	}
}

func TestBreakable(t *testing.T) {
	n := 0
	for id := 0; id <= MaxID; id++ {
		if IsBreakable(id) {
			n++
			if !IsObject(id) {
				t.Errorf("breakable %d is not an object model", id)
			}
		}
	}
	if n != 303 {
		t.Fatalf("breakable models = %d, want 303", n)
	}
}

func BenchmarkIsObject(b *testing.B) {
	b.ReportAllocs()
	IsObject(1)
	for i := 0; b.Loop(); i++ {
		IsObject(i % 20000)
	}
}
