package wire

// Lane is the path a packet travels on (docs/protocol.md, Lanes).
type Lane uint8

const (
	LaneNone       Lane = iota // not a packet id
	LaneControl                // outside the lanes: no event id, never acked
	LaneReliable               // Server → Client reliable event lane (event_id at bytes 1..5)
	LaneGoBackN                // Client → Server Go-Back-N lane (token, then event_id at bytes 9..13)
	LaneUnreliable             // sequenced snapshots and unreliable requests
)

func (l Lane) String() string {
	return [...]string{"none", "control", "reliable", "go-back-n", "unreliable"}[l]
}

// lanes is the lane of every packet id, as the packet table of
// docs/protocol.md gives it. Ids whose codecs live in other files are
// written as numbers so this table stands on its own.
var lanes = [256]Lane{
	0x01: LaneControl,    // ClientHello
	0x02: LaneControl,    // ServerHello
	0x03: LaneControl,    // HelloRetry
	0x04: LaneControl,    // Disconnect
	0x05: LaneControl,    // ClientDisconnect
	0x06: LaneControl,    // ClientKeepalive
	0x07: LaneGoBackN,    // ClientChat
	0x08: LaneReliable,   // ChatMessage
	0x09: LaneControl,    // ServerKeepalive
	0x0A: LaneReliable,   // Fragment
	0x0B: LaneUnreliable, // PlayerSync
	0x0C: LaneGoBackN,    // EntityEdit
	0x0D: LaneReliable,   // RespawnPlayer
	0x0E: LaneControl,    // ClientAck
	0x0F: LaneControl,    // ServerAck
	0x10: LaneReliable,   // EditState
	0x11: LaneReliable,   // SetWanted
	0x12: LaneReliable,   // PickupSync
	0x13: LaneGoBackN,    // PickupTouch
	0x15: LaneReliable,   // TeleportPlayer
	0x16: LaneReliable,   // GiveWeapon
	0x17: LaneReliable,   // GiveHealth
	0x18: LaneReliable,   // GiveArmor
	0x19: LaneReliable,   // PlayerShow
	0x1A: LaneReliable,   // VehicleShow
	0x1B: LaneUnreliable, // PlayerMove
	0x1C: LaneUnreliable, // VehicleMove
	0x20: LaneReliable,   // SetSkin
	0x21: LaneReliable,   // SetTime
	0x22: LaneReliable,   // SetWeather
	0x23: LaneReliable,   // RunClock
	0x2A: LaneReliable,   // SpawnPlayer
	0x30: LaneUnreliable, // NetvarSync
	0x31: LaneReliable,   // NetvarManifest
	0x32: LaneUnreliable, // NetvarResyncRequest
	0x33: LaneReliable,   // NetvarResync
	0x34: LaneReliable,   // NetvarUpdate
	0x35: LaneGoBackN,    // NetvarClientSet
	0x51: LaneReliable,   // GarageDoors
	0x5A: LaneReliable,   // CreateExplosion
	0x66: LaneReliable,   // Label3D
	0x67: LaneReliable,   // Checkpoint
	0x68: LaneReliable,   // Blip
	0x71: LaneReliable,   // GangZone
	0x8A: LaneReliable,   // ObjectState
	0x95: LaneReliable,   // ColshapeShape
	0x9D: LaneGoBackN,    // PlayerWaypoint
	0x9E: LaneReliable,   // SetWaypoint
}

// LaneOf returns the lane of packet id; LaneNone for an unknown id.
func LaneOf(id byte) Lane { return lanes[id] }
