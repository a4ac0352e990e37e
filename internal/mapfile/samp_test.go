package mapfile

import (
	"reflect"
	"testing"
)

func TestSAMPLines(t *testing.T) {
	src := "// LV houses\r\n" + // 1
		"0, 0, 350\r\n" + // 2: not a call
		"CreateObject(1337, 1.5, -2, 3.25, 0.0, 0.0, -179.999984);\r\n" + // 3
		"new o = CreateDynamicObject(19466, 10, 20, 30, 0, 0, 90, 5, 3, -1, 300.0, 200.0); // door\r\n" + // 4
		"/* CreateObject(280, 0, 0, 0, 0, 0, 0);\r\n" + // 5: comment
		"   still a comment */ AddStaticPickup(358, 2, 100.0, 200.0, 10.0, -1);\r\n" + // 6
		"CreatePickup(1240, 1, 0x10, +2, 3); CreatePickup(1242, 1, 1e1, 2, 3, 7);\r\n" + // 7
		"RemoveBuildingForPlayer(playerid, -1, 0.0, 0.0, 0.0, 10000.0);\r\n" + // 8
		"SendClientMessage(playerid, -1, \"CreateObject(280, 0, 0, 0, 0, 0, 0)\");\r\n" + // 9: a string
		"native CreateObject(modelid, Float:X, Float:Y, Float:Z, Float:rX, Float:rY, Float:rZ, Float:DrawDistance = 0.0);\r\n" + // 10
		"MyCreateObject(280, 0, 0, 0, 0, 0, 0); CreateObjectEx(280); #define CreateObject\r\n" + // 11
		"CreateObject(1337, 0, 0, 0, 0, 0, 0, 150.0);\r\n" // 12
	m := ParseSAMP([]byte(src), Options{Name: "t.map"})
	checkProblems(t, m.Problems, nil)
	wantObjects := []Object{
		{Line: 3, Model: 1337, Place: Place{Pos: Vec3{1.5, -2, 3.25}}, Rot: Vec3{0, 0, -179.999984}, Scale: 1, Collisions: true, Alpha: 255, Breakable: true},
		{Line: 4, Model: 19466, Place: Place{Pos: Vec3{10, 20, 30}, World: 5, Interior: 3}, Rot: Vec3{0, 0, 90}, Scale: 1, Collisions: true, Alpha: 255, Breakable: true, StreamDistance: 300, DrawDistance: 200},
		{Line: 12, Model: 1337, Scale: 1, Collisions: true, Alpha: 255, Breakable: true, DrawDistance: 150},
	}
	if !reflect.DeepEqual(m.Objects, wantObjects) {
		t.Errorf("objects:\n got %+v\nwant %+v", m.Objects, wantObjects)
	}
	wantPickups := []Pickup{
		{Line: 6, Kind: PickupWeapon, Weapon: 34, Model: 358, SAMPType: 2, Place: Place{Pos: Vec3{100, 200, 10}, World: AllWorlds}},
		{Line: 7, Kind: PickupHealth, Model: HealthModel, SAMPType: 1, Place: Place{Pos: Vec3{16, 2, 3}}},
		{Line: 7, Kind: PickupArmor, Model: ArmorModel, SAMPType: 1, Place: Place{Pos: Vec3{10, 2, 3}, World: 7}},
	}
	if !reflect.DeepEqual(m.Pickups, wantPickups) {
		t.Errorf("pickups:\n got %+v\nwant %+v", m.Pickups, wantPickups)
	}
	wantRemovals := []Removal{{Line: 8, Model: -1, Radius: 10000}}
	if !reflect.DeepEqual(m.Removals, wantRemovals) {
		t.Errorf("removals:\n got %+v\nwant %+v", m.Removals, wantRemovals)
	}
	// A CreateDynamicObject with only the required arguments is in every
	// world and interior.
	d := ParseSAMP([]byte("CreateDynamicObject(1337, 0, 0, 0, 0, 0, 0);"), Options{})
	if len(d.Objects) != 1 || d.Objects[0].World != AllWorlds || d.Objects[0].Interior != AllInteriors {
		t.Errorf("CreateDynamicObject defaults: got %+v, want world and interior -1", d.Objects)
	}
}

func TestSAMPProblems(t *testing.T) {
	src := "\xef\xbb\xbfCreateObject(1337, 0, 0, 0, 0, 0, 0);\n" + // 1
		"CreateObject(280, 0, 0, 0, 0, 0, 0);\n" + // 2
		"CreateObject(411, 0, 0, 0, 0, 0, 0);\n" + // 3
		"CreateObject(1337, 6001.0, 0, 0, 0, 0, 0);\n" + // 4
		"CreateObject(1337, 0, 0, -201, 0, 0, 0);\n" + // 5
		"CreateObject(1337, 0, NaN, 0, 0, 0, 0);\n" + // 6
		"CreateObject(1337, 0, 0, 0, 0.0/0.0, 0, 0);\n" + // 7
		"CreateObject(1337, 0, 0, 0, 0, 0, 3601);\n" + // 8
		"CreateObject(1337, 0, 0, 0, 0, 0\n" + // 9
		"CreateObject(1337, 0, 0, 0, 0, 0);\n" + // 10
		"CreateObject(1337, 1.0 + 2.0, 0, 0, 0, 0, 0);\n" + // 11
		"CreateObject(1337.5, 0, 0, 0, 0, 0, 0);\n" + // 12
		"CreateObject(OBJ_DOOR, 0, 0, 0, 0, 0, 0);\n" + // 13
		"CreateObject(1337, 1e39, 0, 0, 0, 0, 0);\n" + // 14
		"CreateDynamicObject(1337, 0, 0, 0, 0, 0, 0, -2);\n" + // 15
		"CreateDynamicObject(1337, 0, 0, 0, 0, 0, 0, 0, 256);\n" + // 16
		"AddStaticPickup(1240, 2, 4096.0, 0, 0);\n" + // 17
		"AddStaticPickup(0, 2, 0, 0, 0);\n" + // 18
		"CreatePickup(1240, -1, 0, 0, 0);\n" + // 19
		"RemoveBuildingForPlayer(playerid, 3464, 0.0, 0.0, 0.0, -1.0);\n" + // 20
		"RemoveBuildingForPlayer(playerid, 400, 0.0, 0.0, 0.0, 1.0);\n" + // 21
		"CreateObject(1337, 0, 0, 0, 0, 0, 0, -5);\n" + // 22
		"CreateObject(1337, 0, 0, 0, 0, 0, 0) CreateObject(1337, 1, 1, 1, 1, 1, 1);\r\n" // 23
	m := ParseSAMP([]byte(src), Options{Name: "t.map"})
	checkProblems(t, m.Problems, []want{
		{2, "CreateObject", "arg 1 (modelid)", "280 is a ped model"},
		{3, "CreateObject", "arg 1 (modelid)", "411 is a vehicle model"},
		{4, "CreateObject", "arg 2 (x)", "outside the world bounds |x| ≤ 6000"},
		{5, "CreateObject", "arg 4 (z)", "z -200..4000"},
		{6, "CreateObject", "arg 3 (y)", `"NaN" is not a numeric literal`},
		{7, "CreateObject", "arg 5 (rx)", `"0.0/0.0" is not a numeric literal`},
		{8, "CreateObject", "arg 7 (rz)", "outside ±3600"},
		{9, "CreateObject", "", "no closing parenthesis"},
		{10, "CreateObject", "", "6 arguments, want 7..8"},
		{11, "CreateObject", "arg 2 (x)", `"1.0 + 2.0" is not a numeric literal`},
		{12, "CreateObject", "arg 1 (modelid)", `"1337.5" is not an integer`},
		{13, "CreateObject", "arg 1 (modelid)", `"OBJ_DOOR" is not a numeric literal`},
		{14, "CreateObject", "arg 2 (x)", "out of the float32 range"},
		{15, "CreateDynamicObject", "arg 8 (worldid)", "-2 is outside -1..65535"},
		{16, "CreateDynamicObject", "arg 9 (interiorid)", "256 is outside -1..255"},
		{17, "AddStaticPickup", "arg 3 (x)", "|x| ≤ 4095"},
		{18, "AddStaticPickup", "arg 1 (model)", "0 is a ped model"},
		{19, "CreatePickup", "arg 2 (type)", "-1 is outside"},
		{20, "RemoveBuildingForPlayer", "arg 6 (radius)", "-1 is outside"},
		{21, "RemoveBuildingForPlayer", "arg 2 (modelid)", "vehicle model"},
		{22, "CreateObject", "arg 8 (drawdistance)", "-5 is below 0"},
	})
	if got, want := len(m.Objects), 3; got != want {
		t.Errorf("objects: got %d, want %d", got, want)
	}
	if len(m.Objects) == 3 && (m.Objects[0].Line != 1 || m.Objects[1].Line != 23 || m.Objects[2].Line != 23) {
		t.Errorf("object lines: got %d, %d, %d, want 1, 23, 23", m.Objects[0].Line, m.Objects[1].Line, m.Objects[2].Line)
	}
}

func TestNumericLiteral(t *testing.T) {
	tests := []struct {
		in    string
		v     float64
		isInt bool
		ok    bool
	}{
		{"0", 0, true, true},
		{"-12", -12, true, true},
		{"+7", 7, true, true},
		{"1.5", 1.5, false, true},
		{"-0.25", -0.25, false, true},
		{"1.", 1, false, true},
		{".5", 0.5, false, true},
		{"1e3", 1000, false, true},
		{"-2.5E-1", -0.25, false, true},
		{"0x1F", 31, true, true},
		{"-0x10", -16, true, true},
		{"", 0, false, false},
		{"-", 0, false, false},
		{".", 0, false, false},
		{"1e", 0, false, false},
		{"e5", 0, false, false},
		{"0x", 0, false, false},
		{"0xG", 0, false, false},
		{"1..2", 0, false, false},
		{"NaN", 0, false, false},
		{"Inf", 0, false, false},
		{"1e999", 0, false, false},
		{"1_000", 0, false, false},
		{"playerid", 0, false, false},
		{"1 2", 0, false, false},
	}
	for _, tt := range tests {
		v, isInt, ok := numericLiteral([]byte(tt.in))
		if v != tt.v || isInt != tt.isInt || ok != tt.ok {
			t.Errorf("numericLiteral(%q): got %v, %v, %v, want %v, %v, %v", tt.in, v, isInt, ok, tt.v, tt.isInt, tt.ok)
		}
	}
}

func TestParseSniffsFormat(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want Format
		err  bool
	}{
		{"xml", "  \n<map></map>", FormatMTA, false},
		{"xml with BOM", "\xef\xbb\xbf<map></map>", FormatMTA, false},
		{"samp", "CreateObject(1337, 0, 0, 0, 0, 0, 0);", FormatSAMP, false},
		{"samp with only problems", "CreateObject(280, 0, 0, 0, 0, 0, 0);", FormatSAMP, false},
		{"neither", "hello world\n", 0, true},
		{"empty", "", 0, true},
	}
	for _, tt := range tests {
		m, err := Parse([]byte(tt.src), Options{Name: "t"})
		if tt.err {
			if err == nil {
				t.Errorf("%s: got no error, want one", tt.name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
		} else if m.Format != tt.want {
			t.Errorf("%s: got format %v, want %v", tt.name, m.Format, tt.want)
		}
	}
}
