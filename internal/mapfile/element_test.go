package mapfile

import (
	"path/filepath"
	"reflect"
	"testing"
)

func load(t *testing.T, file string) *Map {
	t.Helper()
	m, err := Load(filepath.Join("testdata", file), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRealMapValues(t *testing.T) {
	m := load(t, "port69.map")
	o := m.Objects[0]
	wantObj := Object{Line: 365, ID: "object (gnhtelgrnd_lvs) (1)", Model: 8661,
		Place: Place{Pos: Vec3{-1534.749634, 502.716583, 9.361413}},
		Rot:   Vec3{90.240852733105, 0, 89.999981276032}, Scale: 1, Collisions: true, Alpha: 255, Breakable: true}
	if !reflect.DeepEqual(o, wantObj) {
		t.Errorf("first object:\n got %+v\nwant %+v", o, wantObj)
	}
	kinds := map[PickupKind]int{}
	for _, p := range m.Pickups {
		kinds[p.Kind]++
		if p.Kind == PickupWeapon {
			if wm, _ := WeaponModel(p.Weapon); wm != p.Model {
				t.Errorf("line %d: weapon %d has model %d, want %d", p.Line, p.Weapon, p.Model, wm)
			}
		}
	}
	if kinds[PickupHealth] != 39 || kinds[PickupWeapon] != 137 {
		t.Errorf("pickup kinds: got %v, want 39 health, 137 weapon", kinds)
	}
	if got, want := m.Attrs, []Attr{{"edf:definitions", "deathmatch,editor_main"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("root attributes: got %v, want %v", got, want)
	}
	var bullet *Vehicle
	for i := range m.Vehicles {
		if m.Vehicles[i].Model == 541 {
			bullet = &m.Vehicles[i]
		}
	}
	if bullet == nil || !reflect.DeepEqual(bullet.Colors, []int{0, 1, 0, 0}) || bullet.Paintjob != 3 ||
		!reflect.DeepEqual(bullet.Upgrades, []int{1010}) || bullet.Plate != "NP0E6IN" {
		t.Errorf("Bullet: got %+v, want colors 0,1,0,0, paintjob 3, upgrade 1010, plate NP0E6IN", bullet)
	}

	// Old style: type is the weapon id, ammo the amount, rotX="" absent.
	a := load(t, "as-area51.map")
	wantPickup := Pickup{Line: 71, Kind: PickupWeapon, Weapon: 34, Model: 358, Amount: 100, Respawn: 10, SAMPType: -1,
		Place: Place{Pos: Vec3{160.623734, 1933.336182, 34.398438}}}
	if !reflect.DeepEqual(a.Pickups[0], wantPickup) {
		t.Errorf("as-area51 pickup:\n got %+v\nwant %+v", a.Pickups[0], wantPickup)
	}
	if v := a.Vehicles[0]; v.Model != 489 || v.Rot != (Vec3{}) || v.Line != 65 {
		t.Errorf("as-area51 vehicle: got %+v, want model 489, no rotation, line 65", v)
	}
	// Generic elements keep their attributes and their parent.
	var area *Element
	for i := range a.Elements {
		if a.Elements[i].Tag == "spawnarea" {
			area = &a.Elements[i]
			break
		}
	}
	if area == nil || area.Parent < 0 || a.Elements[area.Parent].Tag != "spawngroup" {
		t.Fatalf("first spawnarea: got %+v, want one inside a spawngroup", area)
	}
	if v, ok := area.Attr("weapons"); !ok || v != "24,30;29,300;16,1" {
		t.Errorf("spawnarea weapons: got %q, %v, want 24,30;29,300;16,1", v, ok)
	}
	if g, _ := a.Elements[area.Parent].Attr("req"); g != "" {
		t.Errorf("spawngroup req: got %q, want empty", g)
	}

	d := load(t, "death-rally-final.map")
	types := map[string]int{}
	for _, e := range d.Elements {
		if e.Tag == "racepickup" {
			typ, _ := e.Attr("type")
			types[typ]++
		}
	}
	if want := map[string]int{"repair": 44, "nitro": 22}; !reflect.DeepEqual(types, want) {
		t.Errorf("racepickup types: got %v, want %v", types, want)
	}
}

func TestMTAElements(t *testing.T) {
	src := `<map>
<pickup type="health" amount="50" posX="1" posY="2" posZ="3" />
<pickup type="armour" posX="4095" />
<pickup type="custom" model="1274" respawn="30000" dimension="-1" />
<marker type="ring" size="2.5" color="#FF000080" posX="1" posY="2" posZ="3" interior="3" />
<blip icon="56" size="3" color="0,255,0" visibleDistance="300" posX="5" posY="6" />
<radararea posX="100" posY="200" sizeX="-50" sizeY="25" color="#00FF00" />
<vehicle model="411" posX="1" rotZ="90" color="1,2,3,4,5,6" />
<object model="1337" scale="2" collisions="false" alpha="128" doublesided="true" breakable="false" />
<pickup type="19" />
<pickup type="custom" model="400" />
<pickup type="flag" />
<pickup type="health" posX="4096" />
<pickup type="health" amount="-1" />
<marker type="box" />
<marker size="0" />
<blip icon="64" />
<radararea sizeX="0" sizeY="1" />
<radararea posX="5990" sizeX="20" sizeY="1" />
<vehicle model="1337" />
<vehicle model="411" color="256" />
<vehicle model="411" paintjob="4" />
<marker color="#12345" />
</map>`
	m, err := ParseMTA([]byte(src), Options{Name: "t.map"})
	if err != nil {
		t.Fatal(err)
	}
	wantPickups := []Pickup{
		{Line: 2, Kind: PickupHealth, Model: HealthModel, Amount: 50, SAMPType: -1, Place: Place{Pos: Vec3{1, 2, 3}}},
		{Line: 3, Kind: PickupArmor, Model: ArmorModel, SAMPType: -1, Place: Place{Pos: Vec3{4095, 0, 0}}},
		{Line: 4, Kind: PickupCustom, Model: 1274, Respawn: 30000, SAMPType: -1, Place: Place{World: AllWorlds}},
	}
	if !reflect.DeepEqual(m.Pickups, wantPickups) {
		t.Errorf("pickups:\n got %+v\nwant %+v", m.Pickups, wantPickups)
	}
	wantMarkers := []Marker{{Line: 5, Kind: MarkerRing, Size: 2.5, Color: Color{255, 0, 0, 128}, Place: Place{Pos: Vec3{1, 2, 3}, Interior: 3}}}
	if !reflect.DeepEqual(m.Markers, wantMarkers) {
		t.Errorf("markers:\n got %+v\nwant %+v", m.Markers, wantMarkers)
	}
	wantBlips := []Blip{{Line: 6, Icon: 56, Size: 3, Color: Color{0, 255, 0, 255}, Range: 300, Place: Place{Pos: Vec3{5, 6, 0}}}}
	if !reflect.DeepEqual(m.Blips, wantBlips) {
		t.Errorf("blips:\n got %+v\nwant %+v", m.Blips, wantBlips)
	}
	wantZones := []Zone{{Line: 7, MinX: 50, MinY: 200, MaxX: 100, MaxY: 225, Color: Color{0, 255, 0, 255}, Place: Place{Pos: Vec3{100, 200, 0}}}}
	if !reflect.DeepEqual(m.Zones, wantZones) {
		t.Errorf("zones:\n got %+v\nwant %+v", m.Zones, wantZones)
	}
	if m.Zones[0].Color.RGB() != 0x00FF00 {
		t.Errorf("zone RGB: got %#x, want 0x00ff00", m.Zones[0].Color.RGB())
	}
	wantVehicles := []Vehicle{{Line: 8, Model: 411, Place: Place{Pos: Vec3{1, 0, 0}}, Rot: Vec3{0, 0, 90}, Colors: []int{1, 2, 3, 4, 5, 6}, Paintjob: 3}}
	if !reflect.DeepEqual(m.Vehicles, wantVehicles) {
		t.Errorf("vehicles:\n got %+v\nwant %+v", m.Vehicles, wantVehicles)
	}
	wantObjects := []Object{{Line: 9, Model: 1337, Scale: 2, Alpha: 128, DoubleSided: true}}
	if !reflect.DeepEqual(m.Objects, wantObjects) {
		t.Errorf("objects:\n got %+v\nwant %+v", m.Objects, wantObjects)
	}
	checkProblems(t, m.Problems, []want{
		{10, "pickup", "type", "19 is not a weapon id with a model"},
		{11, "pickup", "model", "400 is a vehicle model"},
		{12, "pickup", "type", `"flag" is not health, armor, custom or a weapon id`},
		{13, "pickup", "posX", "|x| ≤ 4095"},
		{14, "pickup", "amount", "-1 is outside"},
		{15, "marker", "type", `"box" is not cylinder`},
		{16, "marker", "size", "0 is outside (0, 100]"},
		{17, "blip", "icon", "64 is outside 0..63"},
		{18, "radararea", "sizeX", "empty rectangle"},
		{19, "radararea", "sizeX", "leaves the world bounds"},
		{20, "vehicle", "model", "1337 is not a vehicle model"},
		{21, "vehicle", "color", "256 is outside 0..255"},
		{22, "vehicle", "paintjob", "4 is outside 0..3"},
		{23, "marker", "color", `"#12345" is not #RRGGBB`},
	})
}
