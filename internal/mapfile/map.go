// Package mapfile loads the maps players of other servers made: MTA:SA .map
// XML files and SA-MP script lines (CreateObject, CreateDynamicObject,
// AddStaticPickup, CreatePickup, RemoveBuildingForPlayer).
//
// A load never stops at the first bad element. Every element or line that
// breaks a rule (a model that is not an object model, a position outside the
// world bounds, a value that is not a finite number, a malformed line) is
// skipped and reported as a Problem naming the file, the line, the element
// and the attribute or argument; the rest loads. Load returns an error only
// when the file cannot be read as a map at all.
//
// What the server knows (objects, pickups, markers, blips, radar areas,
// vehicles, removed buildings) is decoded into typed values checked against
// the world's ranges. Every other element (spawnpoint, checkpoint,
// racepickup, ...) is kept as an Element with its tag and all its
// attributes, for the gamemode to read.
//
// The package holds no state: every call builds its own Map.
package mapfile

// World ranges the loader checks, from world.md.
const (
	MaxXY       = 6000 // |x|, |y| of every position
	MinZ        = -200
	MaxZ        = 4000
	MaxPickupXY = 4095   // |x|, |y| of a pickup: PickupSync places them at 1/8 m
	MaxRotation = 3600   // |rx|, |ry|, |rz| in degrees, as ObjectState allows
	MinScale    = 0.1    // object scale, the range PickupSync gives pickups
	MaxScale    = 10     //
	MaxInterior = 255    //
	MaxWorld    = 65535  // MTA:SA dimensions; SA-MP worlds are capped alike
	MaxIcon     = 63     // blip icon; 0 is a plain dot
	MaxRadius   = 100000 // RemoveBuildingForPlayer radius
)

// AllWorlds is the virtual world (MTA:SA dimension -1, SA-MP worldid -1) of
// an element shown in every world. AllInteriors is the interior -1 of a
// streamer object shown in every interior.
const (
	AllWorlds    = -1
	AllInteriors = -1
)

// Format is the syntax a file was read with.
type Format uint8

const (
	FormatMTA  Format = iota + 1 // MTA:SA .map XML
	FormatSAMP                   // SA-MP script lines
)

func (f Format) String() string {
	switch f {
	case FormatMTA:
		return "mta"
	case FormatSAMP:
		return "samp"
	}
	return "unknown"
}

// Map is everything one file holds. Slices keep the file's order.
type Map struct {
	Format   Format
	Attrs    []Attr // the MTA:SA root element's attributes (edf:definitions, mod, ...)
	Objects  []Object
	Pickups  []Pickup
	Markers  []Marker
	Blips    []Blip
	Zones    []Zone
	Vehicles []Vehicle
	Removals []Removal // SA-MP RemoveBuildingForPlayer lines
	Elements []Element // elements the server does not know, for the gamemode
	Problems []Problem // what was skipped, and why
}

// Vec3 is a position or a rotation (degrees). Values are float32, as on the
// wire.
type Vec3 struct{ X, Y, Z float32 }

// Color is an RGBA color; A = 255 is opaque.
type Color struct{ R, G, B, A uint8 }

// RGB returns the color as 0xRRGGBB, the form of the wire's color fields.
func (c Color) RGB() uint32 { return uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B) }

// Place is where an element stands: its position, interior and virtual
// world (AllWorlds = every world).
type Place struct {
	Pos      Vec3
	Interior int
	World    int
}

// Object is a placed object model.
type Object struct {
	Line  int    // the line of the element or call
	ID    string // MTA:SA id attribute; "" for SA-MP
	Model int    // an object model (wire.IsObjectModel)
	Place
	Rot         Vec3
	Scale       float32 // uniform; 1 = the model's own size
	Collisions  bool    // default true
	Alpha       uint8   // default 255
	DoubleSided bool    // default false
	Breakable   bool    // default true; only breakable models break anyway
	// SA-MP draw and streamer stream distance; 0 = the server's default.
	DrawDistance, StreamDistance float32
}

// PickupKind is what a pickup gives.
type PickupKind uint8

const (
	PickupCustom PickupKind = iota // a model the gamemode gives meaning to
	PickupHealth
	PickupArmor
	PickupWeapon
)

func (k PickupKind) String() string {
	switch k {
	case PickupHealth:
		return "health"
	case PickupArmor:
		return "armor"
	case PickupWeapon:
		return "weapon"
	}
	return "custom"
}

// Pickup is a pickup. The model is always set: the custom model, the
// weapon's model (WeaponModel), 1240 for health, 1242 for armor.
type Pickup struct {
	Line   int
	ID     string
	Kind   PickupKind
	Weapon int // the weapon id when Kind is PickupWeapon
	Model  int
	Amount int // health or armor points, or ammo
	// Respawn is the MTA:SA respawn time as written: milliseconds in the
	// editor's maps, seconds in some old ones; 0 = not set.
	Respawn int
	// SAMPType is the SA-MP pickup type argument; -1 for MTA:SA pickups.
	SAMPType int
	Place
}

// MarkerKind is the shape of an MTA:SA marker.
type MarkerKind uint8

const (
	MarkerCylinder MarkerKind = iota
	MarkerCheckpoint
	MarkerRing
	MarkerArrow
	MarkerCorona
)

var markerKinds = [...]string{"cylinder", "checkpoint", "ring", "arrow", "corona"}

func (k MarkerKind) String() string {
	if int(k) < len(markerKinds) {
		return markerKinds[k]
	}
	return "unknown"
}

// Marker is an MTA:SA marker.
type Marker struct {
	Line  int
	ID    string
	Kind  MarkerKind
	Size  float32 // default 4
	Color Color   // default 0,0,255,255
	Place
}

// Blip is a radar blip.
type Blip struct {
	Line  int
	ID    string
	Icon  int     // 0..63, 0 = a dot in Color
	Size  int     // MTA:SA size 0..25, default 2
	Color Color   // default 255,0,0,255
	Range float32 // MTA:SA visibleDistance; 0 = not set
	Place
}

// Zone is an MTA:SA radar area: a colored rectangle, a gang zone.
type Zone struct {
	Line       int
	ID         string
	MinX, MinY float32
	MaxX, MaxY float32 // greater than the min on both axes
	Color      Color
	Place      // Pos.Z is 0
}

// Vehicle is a placed vehicle.
type Vehicle struct {
	Line  int
	ID    string
	Model int // a vehicle model (wire.IsVehicleModel)
	Place
	Rot      Vec3
	Colors   []int // the color attribute's values, each 0..255 (palette ids or RGB triples)
	Paintjob int   // 0..3 apply one; 3 is the game's "none" too
	Plate    string
	Upgrades []int // upgrade model ids (1000..1193)
}

// Removal is an SA-MP RemoveBuildingForPlayer: game buildings of Model
// (-1 = every model) within Radius of Pos are removed for the player.
type Removal struct {
	Line   int
	Model  int
	Pos    Vec3
	Radius float32
}

// Element is an element the server does not know, kept for the gamemode.
type Element struct {
	Line   int
	Tag    string // with its prefix, as written: "spawnpoint", "edf:thing"
	Attrs  []Attr // in the file's order
	Parent int    // index in Map.Elements of the enclosing unknown element; -1 at the top
}

// Attr is one attribute, its name with its prefix as written.
type Attr struct{ Name, Value string }

// Attr returns the value of the named attribute and whether it is present.
func (e *Element) Attr(name string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Count returns the number of elements with the given tag.
func (m *Map) Count(tag string) int {
	n := 0
	for i := range m.Elements {
		if m.Elements[i].Tag == tag {
			n++
		}
	}
	return n
}
