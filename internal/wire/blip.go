package wire

// Blip (0x68) shows, changes or hides a marker on the recipient's radar and
// map (world.md).
//
//	[u8 packet_id = 0x68]
//	[u32 event_id]
//	[u32 blip_id]
//	[u8 active]      // 1 = show or replace, 0 = hide (only blip_id matters)
//	[u8 sprite]      // icon 1..63, 0 = a dot in color; always 0 when attached
//	[u32 color]      // 0xRRGGBB
//	[f32 x, y, z]    // when attached, where the entity was by the server's data
//	[u8 attach_kind] // 0 none, 1 player, 2 vehicle
//	[u32 attach_id]
//	[f32 size]       // multiplier of the normal dot or icon size, 0.25..4
//	[u8 flags]       // bit 0: pulses on the pause map; bit 1: short range
//
// Total: 37 bytes. Server → Client, reliable event lane. The client decoder
// rejects active other than 0 / 1 and, with active = 1, a sprite, color,
// attach_kind, size (NaN included) or flags bit out of range, a nonzero
// sprite on an attached blip and a position outside world bounds. A hide
// decodes whatever its other fields hold; the server sends its hides with
// size and flags in range all the same (decision 0015).
type Blip struct {
	EventID    uint32  `json:"event_id"`
	BlipID     uint32  `json:"blip_id"`
	Active     uint8   `json:"active"`
	Sprite     uint8   `json:"sprite"`
	Color      uint32  `json:"color"`
	X          float32 `json:"x"`
	Y          float32 `json:"y"`
	Z          float32 `json:"z"`
	AttachKind uint8   `json:"attach_kind"`
	AttachID   uint32  `json:"attach_id"`
	Size       float32 `json:"size"`
	Flags      uint8   `json:"flags"`
}

const (
	IDBlip  = 0x68
	BlipLen = 37

	MaxBlipSprite = 63
	MinBlipSize   = 0.25
	MaxBlipSize   = 4
)

// Blip flags.
const (
	BlipPulse      = 1 << 0 // pulses on the pause map (the radar never pulses)
	BlipShortRange = 1 << 1 // on the radar only within its range, on the map always
	blipFlags      = BlipPulse | BlipShortRange
)

func init() { register(IDBlip, func() Packet { return new(Blip) }) }

func (*Blip) ID() byte       { return IDBlip }
func (*Blip) Name() string   { return "Blip" }
func (*Blip) Dir() Direction { return ServerToClient }
func (*Blip) Len() int       { return BlipLen }

func (p *Blip) Append(b []byte) []byte {
	b = append(b, IDBlip)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.BlipID)
	b = append(b, p.Active, p.Sprite)
	b = appendU32(b, p.Color)
	b = appendF32(b, p.X)
	b = appendF32(b, p.Y)
	b = appendF32(b, p.Z)
	b = append(b, p.AttachKind)
	b = appendU32(b, p.AttachID)
	b = appendF32(b, p.Size)
	return append(b, p.Flags)
}

func (p *Blip) Parse(b []byte) (int, error) {
	if err := head(b, IDBlip, BlipLen, "Blip"); err != nil {
		return 0, err
	}
	b = b[:BlipLen]
	p.EventID = le.Uint32(b[1:])
	p.BlipID = le.Uint32(b[5:])
	p.Active = b[9]
	p.Sprite = b[10]
	p.Color = le.Uint32(b[11:])
	p.X = f32at(b[15:])
	p.Y = f32at(b[19:])
	p.Z = f32at(b[23:])
	p.AttachKind = b[27]
	p.AttachID = le.Uint32(b[28:])
	p.Size = f32at(b[32:])
	p.Flags = b[36]
	return BlipLen, nil
}

// CheckSend is the server's check: the decoder's rules, and size and flags
// in range on a hide too, so that a decoder reading world.md's size and flags
// rule apart from active still takes every hide (decision 0015).
func (p *Blip) CheckSend() error {
	if err := checkActive("Blip", p.Active); err != nil {
		return err
	}
	if p.Active == 0 {
		return p.checkSizeFlags()
	}
	return p.CheckRecv()
}

// CheckRecv is the client decoder's check.
func (p *Blip) CheckRecv() error {
	const pk = "Blip"
	if err := checkActive(pk, p.Active); err != nil || p.Active == 0 {
		return err
	}
	if err := checkMax(pk, "sprite", p.Sprite, MaxBlipSprite); err != nil {
		return err
	}
	if err := checkRGB(pk, "color", p.Color); err != nil {
		return err
	}
	if err := checkIn(pk, "x", "y", "z", p.X, p.Y, p.Z); err != nil {
		return err
	}
	if err := checkMax(pk, "attach_kind", p.AttachKind, AttachVehicle); err != nil {
		return err
	}
	if p.Sprite != 0 && p.AttachKind != AttachNone {
		return invalid(pk, "sprite", "must be 0 on an attached blip (attach_kind %d), got %d", p.AttachKind, p.Sprite)
	}
	return p.checkSizeFlags()
}

func (p *Blip) checkSizeFlags() error {
	if !in(p.Size, MinBlipSize, MaxBlipSize) {
		return invalid("Blip", "size", "must be a number within 0.25..4, got %v", p.Size)
	}
	if p.Flags&^blipFlags != 0 {
		return invalid("Blip", "flags", "must hold only bits 0 and 1, got 0x%02X", p.Flags)
	}
	return nil
}
