package admin

// World bounds of the map: |x|, |y| ≤ MapBound (world.md, "World bounds").
const MapBound = 6000

// Scope is where an entity lives: a virtual world and an interior. Entities
// of different scopes never see each other; the map shows one scope at once.
type Scope struct {
	World    int32 `json:"world"`
	Interior uint8 `json:"interior"`
}

// MapSource is the world as the map page sees it. The world engine
// implements it; both methods are called from HTTP goroutines.
type MapSource interface {
	// MapState returns what lives in the scope now. Every item it returns
	// is of that scope.
	MapState(Scope) MapState
	// Scopes returns the scopes that hold anything, for the page's
	// selector. Scope{} (world 0, interior 0) is always offered.
	Scopes() []Scope
}

// MapState is one snapshot of a scope, sent to the page as JSON. Positions
// are world meters; colors are 0xRRGGBB. A nil slice is sent as empty.
type MapState struct {
	Scope       Scope           `json:"scope"`
	Players     []MapPlayer     `json:"players"`
	Vehicles    []MapVehicle    `json:"vehicles"`
	Blips       []MapBlip       `json:"blips"`
	Zones       []MapZone       `json:"zones"`
	Pickups     []MapPickup     `json:"pickups"`
	Checkpoints []MapCheckpoint `json:"checkpoints"`
	Labels      []MapLabel      `json:"labels"`
}

// MapPlayer is a spawned player.
type MapPlayer struct {
	ID    uint32  `json:"id"`
	Scope         // the player's scope, flattened into world and interior
	Name  string  `json:"name"`
	X     float32 `json:"x"`
	Y     float32 `json:"y"`
	Z     float32 `json:"z"`
	// Heading is the facing in degrees, counterclockwise from north (the
	// game's convention).
	Heading float32 `json:"heading"`
	Color   uint32  `json:"color"`
	Vehicle uint32  `json:"vehicle"` // the vehicle the player is in; 0 = on foot
}

// MapVehicle is a vehicle.
type MapVehicle struct {
	ID      uint32  `json:"id"`
	Scope           // flattened into world and interior
	Model   uint32  `json:"model"`
	X       float32 `json:"x"`
	Y       float32 `json:"y"`
	Z       float32 `json:"z"`
	Heading float32 `json:"heading"`
	Color   uint32  `json:"color"`
}

// MapBlip is a radar blip, where the server's data puts it (an attached blip
// at its entity's position).
type MapBlip struct {
	ID     uint32  `json:"id"`
	Scope          // flattened into world and interior
	Sprite uint8   `json:"sprite"` // icon 1..63; 0 = a dot in Color
	Color  uint32  `json:"color"`
	X      float32 `json:"x"`
	Y      float32 `json:"y"`
	Z      float32 `json:"z"`
	Size   float32 `json:"size"` // 0.25..4, 1 = normal
}

// MapZone is a gang zone. While Flashing, the page moves its color from
// Color to FlashColor and back over 1024 ms, at a constant Alpha.
type MapZone struct {
	ID         uint32  `json:"id"`
	Scope              // flattened into world and interior
	Color      uint32  `json:"color"`
	Alpha      uint8   `json:"alpha"`
	Flashing   bool    `json:"flashing"`
	FlashColor uint32  `json:"flash_color"`
	MinX       float32 `json:"min_x"`
	MinY       float32 `json:"min_y"`
	MaxX       float32 `json:"max_x"`
	MaxY       float32 `json:"max_y"`
}

// MapPickup is a pickup; an inactive one waits for its respawn.
type MapPickup struct {
	ID     uint32  `json:"id"`
	Scope          // flattened into world and interior
	Model  uint32  `json:"model"`
	X      float32 `json:"x"`
	Y      float32 `json:"y"`
	Z      float32 `json:"z"`
	Active bool    `json:"active"`
}

// MapCheckpoint is one player's checkpoint.
type MapCheckpoint struct {
	ID     uint32  `json:"id"`
	Scope          // flattened into world and interior
	Player uint32  `json:"player"` // whose checkpoint it is
	Kind   uint8   `json:"kind"`   // 0 normal, 1 race, 2 race_finish, 3 air, 4 air_finish
	X      float32 `json:"x"`
	Y      float32 `json:"y"`
	Z      float32 `json:"z"`
	Radius float32 `json:"radius"`
	Color  uint32  `json:"color"`
}

// MapLabel is a 3D text label, at its world position (an attached label at
// its entity's position plus the offset).
type MapLabel struct {
	ID    uint32  `json:"id"`
	Scope         // flattened into world and interior
	Text  string  `json:"text"`
	Color uint32  `json:"color"`
	X     float32 `json:"x"`
	Y     float32 `json:"y"`
	Z     float32 `json:"z"`
}

// filled returns st with every nil slice made empty, so the JSON carries []
// rather than null.
func (st MapState) filled() MapState {
	if st.Players == nil {
		st.Players = []MapPlayer{}
	}
	if st.Vehicles == nil {
		st.Vehicles = []MapVehicle{}
	}
	if st.Blips == nil {
		st.Blips = []MapBlip{}
	}
	if st.Zones == nil {
		st.Zones = []MapZone{}
	}
	if st.Pickups == nil {
		st.Pickups = []MapPickup{}
	}
	if st.Checkpoints == nil {
		st.Checkpoints = []MapCheckpoint{}
	}
	if st.Labels == nil {
		st.Labels = []MapLabel{}
	}
	return st
}

// capped returns st with every slice cut to at most n items, and, for each
// kind that was cut, its full count by JSON name (nil when nothing was).
func (st MapState) capped(n int) (MapState, map[string]int) {
	var totals map[string]int
	st.Players = capTo(st.Players, n, "players", &totals)
	st.Vehicles = capTo(st.Vehicles, n, "vehicles", &totals)
	st.Blips = capTo(st.Blips, n, "blips", &totals)
	st.Zones = capTo(st.Zones, n, "zones", &totals)
	st.Pickups = capTo(st.Pickups, n, "pickups", &totals)
	st.Checkpoints = capTo(st.Checkpoints, n, "checkpoints", &totals)
	st.Labels = capTo(st.Labels, n, "labels", &totals)
	return st, totals
}

func capTo[T any](s []T, n int, name string, totals *map[string]int) []T {
	if len(s) <= n {
		return s
	}
	if *totals == nil {
		*totals = map[string]int{}
	}
	(*totals)[name] = len(s)
	return s[:n]
}
