package mapfile

import (
	"os"
	"testing"

	"dlmp/internal/wire"
)

// checkLoaded asserts what every load guarantees, whatever the input: what
// was kept obeys the rules, and every problem names a line.
func checkLoaded(t *testing.T, m *Map) {
	t.Helper()
	for _, o := range m.Objects {
		if !wire.IsObjectModel(o.Model) || checkPos(&posNames, o.Pos, MaxXY) != nil || checkRot(&rotNames, o.Rot) != nil ||
			checkScale("scale", o.Scale) != nil {
			t.Fatalf("kept an object that breaks a rule: %+v", o)
		}
	}
	for _, p := range m.Pickups {
		if !wire.IsObjectModel(p.Model) || checkPos(&posNames, p.Pos, MaxPickupXY) != nil {
			t.Fatalf("kept a pickup that breaks a rule: %+v", p)
		}
	}
	for _, v := range m.Vehicles {
		if !wire.IsVehicleModel(v.Model) || checkPos(&posNames, v.Pos, MaxXY) != nil {
			t.Fatalf("kept a vehicle that breaks a rule: %+v", v)
		}
	}
	for _, z := range m.Zones {
		if !(z.MinX < z.MaxX && z.MinY < z.MaxY && z.MinX >= -MaxXY && z.MaxX <= MaxXY && z.MinY >= -MaxXY && z.MaxY <= MaxXY) {
			t.Fatalf("kept a zone that breaks a rule: %+v", z)
		}
	}
	for _, p := range m.Problems {
		if p.Line < 1 || p.Rule == "" || p.Element == "" {
			t.Fatalf("problem without a line, element or rule: %#v", p)
		}
	}
	for i, e := range m.Elements {
		if e.Parent >= i {
			t.Fatalf("element %d has parent %d, not an earlier element", i, e.Parent)
		}
	}
}

func addSeeds(f *testing.F, files ...string) {
	for _, file := range files {
		data, err := os.ReadFile("testdata/" + file)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 1024 { // small seeds keep minimizing fast
			data = data[:1024]
		}
		f.Add(data)
	}
}

func FuzzParseMTA(f *testing.F) {
	addSeeds(f, "as-area51.map", "chiliad-climb.map", "death-rally-final.map", "port69.map")
	f.Add([]byte("<map><radararea posX=\"1\" sizeX=\"2\" sizeY=\"3\"/><marker/><blip/><vehicle model=\"411\"/></map>"))
	f.Add([]byte("\xff\xfe<\x00m\x00a\x00p\x00>\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMTA(data, Options{Name: "f"})
		if err != nil {
			return
		}
		checkLoaded(t, m)
	})
}

func FuzzParseSAMP(f *testing.F) {
	addSeeds(f, "lv-houses.pwn.txt")
	f.Add([]byte("new o = CreateDynamicObject(1337, 1, 2, 3, 4, 5, 6, -1, -1, -1, 300.0); /* x */ AddStaticPickup(1240, 2, 0x10, -1e2, .5);"))
	f.Add([]byte("CreatePickup(\"(\", ')', [1,2]{3}, (4), 5);\nRemoveBuildingForPlayer(playerid, -1, 0, 0, 0, 10);"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoaded(t, ParseSAMP(data, Options{Name: "f"}))
	})
}
