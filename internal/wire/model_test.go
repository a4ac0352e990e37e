package wire

import "testing"

func TestModelCounts(t *testing.T) {
	got := ModelTable()
	want := ModelCounts{Objects: 15768, Weapons: 50, Breakable: 303, SAMP: 1430}
	if got != want {
		t.Fatalf("ModelTable() = %+v, want %+v", got, want)
	}
}

func TestModelKinds(t *testing.T) {
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
		if got := IsObjectModel(tt.id); got != tt.object {
			t.Errorf("IsObjectModel(%d) = %v, want %v", tt.id, got, tt.object)
		}
		if got := IsWeaponModel(tt.id); got != tt.weapon {
			t.Errorf("IsWeaponModel(%d) = %v, want %v", tt.id, got, tt.weapon)
		}
		if got := IsSAMPModel(tt.id); got != tt.sampd {
			t.Errorf("IsSAMPModel(%d) = %v, want %v", tt.id, got, tt.sampd)
		}
	}
	if !IsPedModel(0) || !IsPedModel(311) || IsPedModel(312) || !IsVehicleModel(400) || !IsVehicleModel(611) || IsVehicleModel(612) {
		t.Error("ped/vehicle ranges wrong")
	}
}

func TestBreakableModels(t *testing.T) {
	n := 0
	for id := 0; id <= MaxModel; id++ {
		if IsBreakableModel(id) {
			n++
			if !IsObjectModel(id) {
				t.Errorf("breakable %d is not an object model", id)
			}
		}
	}
	if n != 303 {
		t.Fatalf("breakable models = %d, want 303", n)
	}
}

func BenchmarkIsObjectModelModel(b *testing.B) {
	b.ReportAllocs()
	IsObjectModel(1)
	for i := 0; b.Loop(); i++ {
		IsObjectModel(i % 20000)
	}
}
