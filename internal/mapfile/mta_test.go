package mapfile

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// want is one expected problem: its line, element, field and a piece of
// its rule.
type want struct {
	line           int
	element, field string
	rule           string
}

// checkProblems compares problems with the wanted ones, in order.
func checkProblems(t *testing.T, got []Problem, wants []want) {
	t.Helper()
	if len(got) != len(wants) {
		t.Errorf("got %d problems, want %d:", len(got), len(wants))
		for _, p := range got {
			t.Errorf("  %v", p)
		}
		return
	}
	for i, w := range wants {
		p := got[i]
		if p.Line != w.line || p.Element != w.element || p.Field != w.field || !strings.Contains(p.Rule, w.rule) {
			t.Errorf("problem %d: got %v (line %d), want line %d, %s %s: ...%s...", i, p, p.Line, w.line, w.element, w.field, w.rule)
		}
		if p.File != "t.map" {
			t.Errorf("problem %d: got file %q, want t.map", i, p.File)
		}
	}
}

const good = `<object model="1337" posX="1" posY="2" posZ="3" />`

func TestMTAProblems(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		objects int
		wants   []want
	}{
		{"ped model", "<map>\n" + good + "\n<object model=\"280\" />\n" + good + "\n</map>", 2,
			[]want{{3, "object", "model", "280 is a ped model"}}},
		{"vehicle model", "<map>\n" + good + "\n\n<object model=\"411\" />\n</map>", 1,
			[]want{{4, "object", "model", "411 is a vehicle model"}}},
		{"unknown model", "<map>\n<object model=\"19999\" />\n<object model=\"20000\" />\n</map>", 1,
			[]want{{3, "object", "model", "20000 is not an object model"}}},
		{"missing model", "<map>\n<object posX=\"1\" />\n" + good + "</map>", 1,
			[]want{{2, "object", "model", "missing"}}},
		{"empty model", "<map>\n<object model=\"\" />\n" + good + "</map>", 1,
			[]want{{2, "object", "model", "missing"}}},
		{"broken model", "<map>\n" + good + "\n<object model=\"13x7\" />\n</map>", 1,
			[]want{{3, "object", "model", `"13x7" is not an integer`}}},
		{"x out of bounds", "<map>\n<object model=\"1337\" posX=\"6000.5\" />\n<object model=\"1337\" posX=\"-6000\" />\n</map>", 1,
			[]want{{2, "object", "posX", "outside the world bounds |x| ≤ 6000"}}},
		{"y out of bounds", "<map>\n<object model=\"1337\" posY=\"-7000\" />\n</map>", 0,
			[]want{{2, "object", "posY", "outside the world bounds |y|"}}},
		{"z out of bounds", "<map>\n<object model=\"1337\" posZ=\"-200.5\" />\n<object model=\"1337\" posZ=\"4000\" />\n<object model=\"1337\" posZ=\"4001\" />\n</map>", 1,
			[]want{{2, "object", "posZ", "z -200..4000"}, {4, "object", "posZ", "z -200..4000"}}},
		{"NaN", "<map>\n" + good + "\n<object model=\"1337\" posY=\"NaN\" />\n</map>", 1,
			[]want{{3, "object", "posY", `"NaN" is not a finite number`}}},
		{"infinite rotation", "<map>\n<object model=\"1337\" rotZ=\"+Inf\" />\n</map>", 0,
			[]want{{2, "object", "rotZ", "not a finite number"}}},
		{"rotation above 3600", "<map>\n<object model=\"1337\" rotX=\"3600\" />\n<object model=\"1337\" rotX=\"-3600.5\" />\n</map>", 1,
			[]want{{3, "object", "rotX", "outside ±3600"}}},
		{"float32 overflow", "<map>\n<object model=\"1337\" posX=\"1e40\" />\n</map>", 0,
			[]want{{2, "object", "posX", "out of the float32 range"}}},
		{"scale", "<map>\n<object model=\"1337\" scale=\"0\" />\n<object model=\"1337\" scale=\"10\" />\n<object model=\"1337\" scale=\"10.5\" />\n</map>", 1,
			[]want{{2, "object", "scale", "outside 0.1..10"}, {4, "object", "scale", "outside"}}},
		{"interior", "<map>\n<object model=\"1337\" interior=\"256\" />\n<object model=\"1337\" interior=\"255\" />\n</map>", 1,
			[]want{{2, "object", "interior", "256 is outside 0..255"}}},
		{"dimension", "<map>\n<object model=\"1337\" dimension=\"-2\" />\n<object model=\"1337\" dimension=\"-1\" />\n</map>", 1,
			[]want{{2, "object", "dimension", "-2 is outside -1..65535"}}},
		{"boolean", "<map>\n<object model=\"1337\" collisions=\"maybe\" />\n</map>", 0,
			[]want{{2, "object", "collisions", "not true or false"}}},
		{"multi-line element", "<map>\n<object\n  model=\"280\"\n/>\n</map>", 0,
			[]want{{2, "object", "model", "ped model"}}},
		{"unterminated XML", "<map>\n" + good + "\n" + good + "\n<object model=\"1337\"", 2,
			[]want{{4, "xml", "", "malformed XML: unexpected EOF"}}},
		{"unclosed root", "<map>\n" + good + "\n", 1,
			[]want{{3, "map", "", "<map> opened at line 1 is never closed"}}},
		{"stray end tag", "<map>\n" + good + "</group>\n" + good + "\n</map>", 2,
			[]want{{2, "group", "", "</group> closes nothing"}}},
		{"element after the root", "<map>\n" + good + "</map>\n" + good, 1,
			[]want{{3, "object", "", "after the end of <map>"}}},
		{"BOM", "\xef\xbb\xbf<map>\n<object model=\"280\" />\n" + good + "\n</map>", 1,
			[]want{{2, "object", "model", "ped model"}}},
		{"CRLF", "<map>\r\n" + good + "\r\n<object model=\"411\" />\r\n" + good + "\r\n</map>\r\n", 2,
			[]want{{3, "object", "model", "vehicle model"}}},
		{"utf-16 lie", "<?xml version=\"1.0\" encoding=\"utf-16\"?>\r\n<map mod=\"deathmatch\">\r\n" + good + "\r\n<object model=\"1337\" posZ=\"NaN\" />\r\n</map>", 1,
			[]want{{1, "xml", "", `declares encoding "utf-16" but its bytes are UTF-8`}, {4, "object", "posZ", "not a finite number"}}},
		{"bare ampersand", "<map>\n<object model=\"1337\" name=\"Tom & Jerry\" />\n</map>", 1, nil},
		{"undeclared prefix", "<map edf:definitions=\"race\">\n<edf:thing a=\"1\" />\n" + good + "\n</map>", 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMTA([]byte(tt.src), Options{Name: "t.map"})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(m.Objects); got != tt.objects {
				t.Errorf("objects: got %d, want %d", got, tt.objects)
			}
			checkProblems(t, m.Problems, tt.wants)
		})
	}
}

func TestMTANotAMap(t *testing.T) {
	for _, src := range []string{
		"",
		"hello world",
		"<meta><info /></meta>",
		"<map",
		"\x00\x01\x02",
	} {
		if m, err := ParseMTA([]byte(src), Options{Name: "t.map"}); err == nil {
			t.Errorf("ParseMTA(%q): got %d objects and no error, want an error", src, len(m.Objects))
		} else if !strings.HasPrefix(err.Error(), "t.map: ") {
			t.Errorf("ParseMTA(%q): got error %q, want it to name the file", src, err)
		}
	}
}

// TestMTAEncodings: real UTF-16 and Latin-1 bytes are converted and noted.
func TestMTAEncodings(t *testing.T) {
	src := "<?xml version=\"1.0\" encoding=\"utf-16\"?>\n<map>\n<object id=\"café\" model=\"1337\" />\n</map>"
	le := []byte{0xFF, 0xFE}
	be := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(src)) {
		le = append(le, byte(u), byte(u>>8))
		be = append(be, byte(u>>8), byte(u))
	}
	latin1 := []byte(strings.Replace(strings.Replace(src, "é", "\xe9", 1), "utf-16", "iso-8859-1", 1))
	for _, tt := range []struct {
		name string
		data []byte
		note string
	}{
		{"utf-16le", le, "UTF-16 bytes"},
		{"utf-16be", be, "UTF-16 bytes"},
		{"latin-1", latin1, "not UTF-8, read as Latin-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse(tt.data, Options{Name: "t.map"})
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Objects) != 1 || m.Objects[0].ID != "café" || m.Objects[0].Line != 3 {
				t.Fatalf("got objects %+v, want one with id café on line 3", m.Objects)
			}
			if len(m.Problems) != 1 || !m.Problems[0].Note || !strings.Contains(m.Problems[0].Rule, tt.note) {
				t.Errorf("got problems %v, want one note %q", m.Problems, tt.note)
			}
		})
	}
}
