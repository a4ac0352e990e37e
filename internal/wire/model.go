package wire

// The server's model table: every object model id a client can create, which
// of them are the 50 weapon models, which the game can break, and their names
// where known. It is sa-models.tsv, embedded (sa-models.md says where it comes
// from), parsed once on first use into fixed bitsets. Safe for concurrent use.

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

// MaxModel is the highest model id any table entry may have.
const MaxModel = 19999

// Ped (skin) and vehicle ids: never object models.
const (
	MinPed, MaxPed         = 0, 311
	MinVehicle, MaxVehicle = 400, 611
)

//go:embed sa-models.tsv
var table string

type bitset [MaxModel/64 + 1]uint64

func (s *bitset) set(id int) { s[id/64] |= 1 << (id % 64) }

func (s *bitset) has(id int) bool {
	return id >= 0 && id <= MaxModel && s[id/64]&(1<<(id%64)) != 0
}

var (
	once                         sync.Once
	object, weapon, breaks, samp bitset
	names                        map[int]string
	counts                       ModelCounts
)

// ModelCounts reports how many entries of each kind the table holds.
type ModelCounts struct {
	Objects   int // every valid object model, weapon models included
	Weapons   int // the weapon models 321..373 that exist
	Breakable int // flag b
	SAMP      int // flag s: added by SA-MP
}

func load() {
	names = make(map[int]string, 16000)
	for line := range strings.Lines(table) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		id, err := strconv.Atoi(f[0])
		if err != nil || id < 0 || id > MaxModel {
			panic("wire: bad model id in embedded table: " + line)
		}
		object.set(id)
		counts.Objects++
		if len(f) > 1 && f[1] != "" {
			names[id] = f[1]
		}
		if len(f) > 2 {
			if strings.Contains(f[2], "w") {
				weapon.set(id)
				counts.Weapons++
			}
			if strings.Contains(f[2], "b") {
				breaks.set(id)
				counts.Breakable++
			}
			if strings.Contains(f[2], "s") {
				samp.set(id)
				counts.SAMP++
			}
		}
	}
}

// IsObjectModel reports whether id is an object model a client can create
// (weapon models included). Ped and vehicle ids are not.
func IsObjectModel(id int) bool { once.Do(load); return object.has(id) }

// IsWeaponModel reports whether id is one of the 50 weapon models (321..373,
// without 329, 332 and 340).
func IsWeaponModel(id int) bool { once.Do(load); return weapon.has(id) }

// IsBreakableModel reports whether the game can break model id (flag b).
func IsBreakableModel(id int) bool { once.Do(load); return breaks.has(id) }

// IsSAMPModel reports whether id was added by SA-MP rather than the original game.
func IsSAMPModel(id int) bool { once.Do(load); return samp.has(id) }

// ModelName returns the model's name, or "" when the table has none.
func ModelName(id int) string { once.Do(load); return names[id] }

// ModelTable returns the counts of the embedded table.
func ModelTable() ModelCounts { once.Do(load); return counts }

// IsPedModel reports whether id is a ped (skin) id.
func IsPedModel(id int) bool { return id >= MinPed && id <= MaxPed }

// IsVehicleModel reports whether id is a vehicle model id.
func IsVehicleModel(id int) bool { return id >= MinVehicle && id <= MaxVehicle }
