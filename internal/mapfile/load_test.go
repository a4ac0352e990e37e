package mapfile

import (
	"path/filepath"
	"strings"
	"testing"

	"dlmp/internal/wire"
)

// TestRealMaps loads the maps of testdata (README.md there) and checks the
// exact counts of what each holds.
func TestRealMaps(t *testing.T) {
	tests := []struct {
		file                               string
		format                             Format
		objects, sampObjects, pickups, veh int
		removals                           int
		elements                           map[string]int
		problems                           int
	}{
		{"as-area51.map", FormatMTA, 1, 0, 1, 5, 0, map[string]int{"objective": 5, "spawngroup": 6, "spawnarea": 7, "camera": 3, "weapon": 2, "assaultSettings": 1}, 0},
		{"port69.map", FormatMTA, 232, 0, 176, 87, 0, map[string]int{"spawnpoint": 100}, 0},
		{"chiliad-climb.map", FormatMTA, 6, 0, 0, 0, 0, map[string]int{"checkpoint": 48, "spawnpoint": 16}, 0},
		{"death-rally-final.map", FormatMTA, 1033, 0, 0, 0, 0, map[string]int{"checkpoint": 48, "racepickup": 66, "spawnpoint": 32}, 1},
		{"lv-houses.pwn.txt", FormatSAMP, 918, 686, 0, 0, 8, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m, err := Load(filepath.Join("testdata", tt.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range m.Problems {
				t.Log(p)
			}
			samp := 0
			for _, o := range m.Objects {
				if wire.IsSAMPModel(o.Model) {
					samp++
				}
			}
			for _, c := range []struct {
				what      string
				got, want int
			}{
				{"format", int(m.Format), int(tt.format)},
				{"objects", len(m.Objects), tt.objects},
				{"SA-MP model objects", samp, tt.sampObjects},
				{"pickups", len(m.Pickups), tt.pickups},
				{"vehicles", len(m.Vehicles), tt.veh},
				{"removals", len(m.Removals), tt.removals},
				{"problems", len(m.Problems), tt.problems},
				{"elements", len(m.Elements), sum(tt.elements)},
			} {
				if c.got != c.want {
					t.Errorf("%s: got %d, want %d", c.what, c.got, c.want)
				}
			}
			for tag, want := range tt.elements {
				if got := m.Count(tag); got != want {
					t.Errorf("<%s> elements: got %d, want %d", tag, got, want)
				}
			}
		})
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestProgress: reports grow, never pass the total, end at the total, and
// stay within progressSteps+1 calls, for both parsers.
func TestProgress(t *testing.T) {
	for _, file := range []string{"death-rally-final.map", "lv-houses.pwn.txt"} {
		var calls int
		var last, total int64 = -1, -1
		_, err := Load("testdata/"+file, Options{Progress: func(done, tot int64) {
			calls++
			if done < last || done > tot || (total >= 0 && tot != total) {
				t.Errorf("%s: report %d of %d after %d of %d", file, done, tot, last, total)
			}
			last, total = done, tot
		}})
		if err != nil {
			t.Fatal(err)
		}
		if last != total || total <= 0 {
			t.Errorf("%s: last report %d of %d, want done = total > 0", file, last, total)
		}
		if calls < 10 || calls > progressSteps+2 {
			t.Errorf("%s: got %d reports, want 10..%d", file, calls, progressSteps+2)
		}
	}
}

// TestProgressConverted: progress stays within the total when the bytes
// were converted (Latin-1 grows, UTF-16 shrinks).
func TestProgressConverted(t *testing.T) {
	src := "<map>\n" + strings.Repeat("<object id=\"\xe9\xe9\xe9\xe9\" model=\"1337\" />\n", 200) + "</map>"
	var last, total int64
	m, err := ParseMTA([]byte(src), Options{Progress: func(done, tot int64) {
		if done > tot || done < last {
			t.Fatalf("report %d of %d after %d", done, tot, last)
		}
		last, total = done, tot
	}})
	if err != nil || len(m.Objects) != 200 {
		t.Fatalf("got %v, %d objects, want 200", err, len(m.Objects))
	}
	if last != total {
		t.Errorf("last report %d of %d, want done = total", last, total)
	}
}
