package wire

import "unicode/utf8"

// Limits of the packets docs/protocol.md defines.
const (
	ProtocolVersion = 1          // the version this package speaks (ClientHello, ServerHello)
	ProtocolMagic   = 0x504D4C44 // "DLMP" on the wire (ClientHello)

	MaxPlayers      = 1000   // player ids are 0..MaxPlayers-1
	ServerPlayerID  = 0xFFFF // ChatMessage.from of a line the server says
	MaxVehicleID    = 1999   // vehicle ids are 1..=MaxVehicleID; 0 = no vehicle
	MaxSeat         = 8      // passenger seats are 1..=MaxSeat
	MaxSkin         = 311    // skins are 0..=MaxSkin except InvalidSkin
	InvalidSkin     = 74     // the game has no skin 74
	MaxWeapon       = 46     // weapons are 0..=MaxWeapon except 19..=21
	MaxHealth       = 100    // health and armour of a player
	MaxVehicleHP    = 1000   // vehicle health
	MaxSpeed        = 200    // m/s, every velocity component
	MaxChatText     = 144    // bytes of a chat line
	MaxDisconnect   = 10     // the highest Disconnect reason
	MinVehicleModel = 400
	MaxVehicleModel = 611
)

// checkToken checks that a Client → Server packet carries a token; whether it
// names a live session is the server's stateful check.
func checkToken(packet string, token uint64) error {
	if token == 0 {
		return invalid(packet, "token", "must not be 0")
	}
	return nil
}

// checkHeading checks a heading in degrees, 0 ≤ h < 360.
func checkHeading(packet string, h float32) error {
	if !(h >= 0 && h < 360) {
		return invalid(packet, "heading", "must be a number in [0, 360), got %v", h)
	}
	return nil
}

// checkVelocity checks the three components of a velocity in m/s.
func checkVelocity(packet string, vx, vy, vz float32) error {
	for _, f := range [...]struct {
		name string
		v    float32
	}{{"vx", vx}, {"vy", vy}, {"vz", vz}} {
		if !in(f.v, -MaxSpeed, MaxSpeed) {
			return invalid(packet, f.name, "must be a number within ±200 m/s, got %v", f.v)
		}
	}
	return nil
}

// checkQuat checks a unit quaternion: finite, squared norm in 0.98..=1.02.
// The error names qw, the field that completes the rotation.
func checkQuat(packet string, qx, qy, qz, qw float32) error {
	if !finite(qx) || !finite(qy) || !finite(qz) || !finite(qw) {
		return invalid(packet, "qw", "every component must be a number, got (%v, %v, %v, %v)", qx, qy, qz, qw)
	}
	n := float64(qx)*float64(qx) + float64(qy)*float64(qy) + float64(qz)*float64(qz) + float64(qw)*float64(qw)
	if n < 0.98 || n > 1.02 {
		return invalid(packet, "qw", "must be a unit quaternion (squared norm 0.98..=1.02), got %.4f", n)
	}
	return nil
}

// checkWeapon checks a weapon id: 0..=46, and not 19, 20 or 21.
func checkWeapon(packet string, w uint8) error {
	if w > MaxWeapon || w >= 19 && w <= 21 {
		return invalid(packet, "weapon", "must be 0..=46 and not 19..=21, got %d", w)
	}
	return nil
}

// checkSkin checks a skin id: 0..=311, and not 74.
func checkSkin(packet string, s uint16) error {
	if s > MaxSkin || s == InvalidSkin {
		return invalid(packet, "skin", "must be 0..=311 and not 74, got %d", s)
	}
	return nil
}

// checkPoints checks health or armour points, 0..=100.
func checkPoints(packet, field string, v uint8) error {
	if v > MaxHealth {
		return invalid(packet, field, "must be 0..=100, got %d", v)
	}
	return nil
}

// checkLanding checks the place of a spawn, respawn or teleport: position
// within world bounds and a heading.
func checkLanding(packet string, x, y, z, heading float32) error {
	if err := checkWorld(packet, "x", "y", "z", x, y, z); err != nil {
		return err
	}
	return checkHeading(packet, heading)
}

// checkVehicleID checks a vehicle id, 1..=1999.
func checkVehicleID(packet string, id uint16) error {
	if id == 0 || id > MaxVehicleID {
		return invalid(packet, "vehicle_id", "must be 1..=1999, got %d", id)
	}
	return nil
}

// checkPlayerID checks a player id, 0..=999.
func checkPlayerID(packet, field string, id uint16) error {
	if id >= MaxPlayers {
		return invalid(packet, field, "must be 0..=999, got %d", id)
	}
	return nil
}

// checkReason checks a Disconnect reason, 1..=10.
func checkReason(packet string, r uint8) error {
	if r == 0 || r > MaxDisconnect {
		return invalid(packet, "reason", "must be 1..=10, got %d", r)
	}
	return nil
}

// checkChatText checks a chat line: 1..=144 bytes of UTF-8 without control
// characters (U+0000..U+001F, U+007F).
func checkChatText(packet string, text []byte) error {
	if len(text) == 0 || len(text) > MaxChatText {
		return invalid(packet, "len", "must be 1..=144, got %d", len(text))
	}
	if !utf8.Valid(text) {
		return invalid(packet, "text", "must be valid UTF-8")
	}
	for i, c := range text {
		if c < 0x20 || c == 0x7F {
			return invalid(packet, "text", "must hold no control character, got 0x%02X at byte %d", c, i)
		}
	}
	return nil
}

// checkPayloadLen checks the length of a netvar payload, 1..=hi.
func checkPayloadLen(packet string, n, hi int) error {
	if n == 0 || n > hi {
		return invalid(packet, "len", "must be 1..=%d, got %d", hi, n)
	}
	return nil
}
