package stream

// Kind is a kind of per-player primitive, with its nearest-N limit from
// world.md.
type Kind uint8

const (
	Pickups     Kind = iota // no limit: every pickup within the draw distance
	Labels                  // the 256 nearest within their draw distance
	Checkpoints             // up to 16 per player
	Blips                   // the 100 nearest
	GangZones               // the 1024 nearest by center, no distance limit
	Colshapes               // the 256 nearest outlines by the form's center
	Objects                 // the 1000 nearest, chains counted whole
)

var limits = [...]int{
	Pickups:     Unlimited,
	Labels:      256,
	Checkpoints: 16,
	Blips:       100,
	GangZones:   1024,
	Colshapes:   256,
	Objects:     1000,
}

var names = [...]string{"pickups", "labels", "checkpoints", "blips", "gang zones", "colshapes", "objects"}

// Limit returns how many entities of the kind a player is shown at most
// ([Unlimited] for pickups).
func (k Kind) Limit() int { return limits[k] }

func (k Kind) String() string { return names[k] }
