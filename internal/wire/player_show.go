package wire

import "fmt"

// PlayerShow (0x19) shows another player to the recipient, or hides them
// (docs/protocol.md).
//
//	[u8 packet_id = 0x19]
//	[u32 event_id]
//	[u16 player_id]  // 0..=999
//	[u8 active]      // 1 = show (all fields), 0 = hide (only player_id matters)
//	[u16 skin]       // 0..=311 except 74
//	[u32 color]      // 0xRRGGBB: name tag and radar color
//	[u8 name[24]]    // 3..=24 bytes of A-Z a-z 0-9 _ [ ] ( ) . $ @ =, NUL-padded
//
// Total: 38 bytes. Server → Client, reliable event lane, critical. Both the
// server and the client decoder reject active other than 0 / 1, player_id
// above 999 and, with active = 1, skin, color and name out of their rules.
type PlayerShow struct {
	EventID    uint32     `json:"event_id"`
	PlayerID   uint16     `json:"player_id"`
	Active     uint8      `json:"active"`
	Skin       uint16     `json:"skin"`
	Color      uint32     `json:"color"`
	PlayerName PlayerName `json:"name"`
}

const (
	IDPlayerShow  = 0x19
	PlayerShowLen = 38
)

func init() { register(IDPlayerShow, func() Packet { return new(PlayerShow) }) }

func (*PlayerShow) ID() byte       { return IDPlayerShow }
func (*PlayerShow) Name() string   { return "PlayerShow" }
func (*PlayerShow) Dir() Direction { return ServerToClient }
func (*PlayerShow) Len() int       { return PlayerShowLen }

func (p *PlayerShow) Append(b []byte) []byte {
	b = append(b, IDPlayerShow)
	b = appendU32(b, p.EventID)
	b = appendU16(b, p.PlayerID)
	b = append(b, p.Active)
	b = appendU16(b, p.Skin)
	b = appendU32(b, p.Color)
	b = append(b, p.PlayerName[:]...)
	return b
}

func (p *PlayerShow) Parse(b []byte) (int, error) {
	if err := head(b, IDPlayerShow, PlayerShowLen, "PlayerShow"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.PlayerID = c.u16()
	p.Active = c.u8()
	p.Skin = c.u16()
	p.Color = c.u32()
	c.bytes(p.PlayerName[:])
	return PlayerShowLen, nil
}

// CheckSend is the server's check before sending.
func (p *PlayerShow) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *PlayerShow) CheckRecv() error { return p.check() }

func (p *PlayerShow) check() error {
	const pk = "PlayerShow"
	if err := checkPlayerID(pk, "player_id", p.PlayerID); err != nil {
		return err
	}
	if err := checkBool(pk, "active", p.Active); err != nil {
		return err
	}
	if p.Active == 0 {
		return nil
	}
	if err := checkSkin(pk, p.Skin); err != nil {
		return err
	}
	if err := checkColor(pk, "color", p.Color); err != nil {
		return err
	}
	return checkPlayerName(pk, p.PlayerName)
}

// MinNameLen and MaxNameLen bound a player name.
const (
	MinNameLen = 3
	MaxNameLen = 24
)

// checkPlayerName checks a NUL-padded name: 3..=24 bytes of the name set,
// then only NULs.
func checkPlayerName(pk string, name PlayerName) error {
	n := 0
	for n < len(name) && name[n] != 0 {
		if !nameByte(name[n]) {
			return invalid(pk, "name", "byte %d is 0x%02X, outside A-Z a-z 0-9 _ [ ] ( ) . $ @ =", n, name[n])
		}
		n++
	}
	if n < MinNameLen {
		return invalid(pk, "name", "must be 3..=24 bytes, got %d", n)
	}
	for i := n; i < len(name); i++ {
		if name[i] != 0 {
			return invalid(pk, "name", "byte %d after the NUL at %d must be NUL, got 0x%02X", i, n, name[i])
		}
	}
	return nil
}

// nameByte reports whether c may appear in a player name.
func nameByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '_', '[', ']', '(', ')', '.', '$', '@', '=':
		return true
	}
	return false
}

// PlayerName is a NUL-padded player name. As JSON it is a string.
type PlayerName [MaxNameLen]byte

// String returns the name up to its first NUL.
func (n PlayerName) String() string {
	for i, c := range n {
		if c == 0 {
			return string(n[:i])
		}
	}
	return string(n[:])
}

func (n PlayerName) MarshalText() ([]byte, error) { return []byte(n.String()), nil }

func (n *PlayerName) UnmarshalText(b []byte) error {
	if len(b) > MaxNameLen {
		return fmt.Errorf("player name is %d bytes, at most %d fit", len(b), MaxNameLen)
	}
	*n = PlayerName{}
	copy(n[:], b)
	return nil
}
