package wire

// GangZone (0x71) shows, changes or hides a colored world rectangle on the
// recipient's radar and map (world.md).
//
//	[u8 packet_id = 0x71]
//	[u32 event_id]
//	[u32 zone_id]
//	[u8 active]          // 1 = show or replace, 0 = hide (only zone_id matters)
//	[u8 flashing]        // 0 or 1
//	[u32 color]          // 0xRRGGBB
//	[u8 alpha]           // 0..255
//	[u32 flash_color]    // 0xRRGGBB; used while flashing
//	[f32 min_x, min_y]
//	[f32 max_x, max_y]   // greater than min on both axes
//	[u32 rev]            // zone revision; the rev an EntityEdit of the zone carries
//
// Total: 40 bytes. Server → Client, reliable event lane. The client decoder
// and the server reject active other than 0 / 1 and, with active = 1,
// flashing other than 0 / 1, a color or flash_color out of range, corners
// outside world bounds (|x|, |y| ≤ 6000) and a degenerate rectangle.
type GangZone struct {
	EventID    uint32  `json:"event_id"`
	ZoneID     uint32  `json:"zone_id"`
	Active     uint8   `json:"active"`
	Flashing   uint8   `json:"flashing"`
	Color      uint32  `json:"color"`
	Alpha      uint8   `json:"alpha"`
	FlashColor uint32  `json:"flash_color"`
	MinX       float32 `json:"min_x"`
	MinY       float32 `json:"min_y"`
	MaxX       float32 `json:"max_x"`
	MaxY       float32 `json:"max_y"`
	Rev        uint32  `json:"rev"`
}

const (
	IDGangZone  = 0x71
	GangZoneLen = 40
)

func init() { register(IDGangZone, func() Packet { return new(GangZone) }) }

func (*GangZone) ID() byte       { return IDGangZone }
func (*GangZone) Name() string   { return "GangZone" }
func (*GangZone) Dir() Direction { return ServerToClient }
func (*GangZone) Len() int       { return GangZoneLen }

func (p *GangZone) Append(b []byte) []byte {
	b = append(b, IDGangZone)
	b = appendU32(b, p.EventID)
	b = appendU32(b, p.ZoneID)
	b = append(b, p.Active, p.Flashing)
	b = appendU32(b, p.Color)
	b = append(b, p.Alpha)
	b = appendU32(b, p.FlashColor)
	b = appendF32(b, p.MinX)
	b = appendF32(b, p.MinY)
	b = appendF32(b, p.MaxX)
	b = appendF32(b, p.MaxY)
	return appendU32(b, p.Rev)
}

func (p *GangZone) Parse(b []byte) (int, error) {
	if err := head(b, IDGangZone, GangZoneLen, "GangZone"); err != nil {
		return 0, err
	}
	b = b[:GangZoneLen]
	p.EventID = le.Uint32(b[1:])
	p.ZoneID = le.Uint32(b[5:])
	p.Active = b[9]
	p.Flashing = b[10]
	p.Color = le.Uint32(b[11:])
	p.Alpha = b[15]
	p.FlashColor = le.Uint32(b[16:])
	p.MinX = f32at(b[20:])
	p.MinY = f32at(b[24:])
	p.MaxX = f32at(b[28:])
	p.MaxY = f32at(b[32:])
	p.Rev = le.Uint32(b[36:])
	return GangZoneLen, nil
}

// CheckSend is the server's check: the decoder's rules.
func (p *GangZone) CheckSend() error { return p.CheckRecv() }

// CheckRecv is the client decoder's check.
func (p *GangZone) CheckRecv() error {
	const pk = "GangZone"
	if err := checkActive(pk, p.Active); err != nil || p.Active == 0 {
		return err
	}
	if err := checkFlag(pk, "flashing", p.Flashing); err != nil {
		return err
	}
	if err := checkRGB(pk, "color", p.Color); err != nil {
		return err
	}
	if err := checkRGB(pk, "flash_color", p.FlashColor); err != nil {
		return err
	}
	if err := checkWorldXY(pk, "min_x", "min_y", p.MinX, p.MinY); err != nil {
		return err
	}
	if err := checkWorldXY(pk, "max_x", "max_y", p.MaxX, p.MaxY); err != nil {
		return err
	}
	if !(p.MinX < p.MaxX) {
		return invalid(pk, "max_x", "must be greater than min_x %v, got %v", p.MinX, p.MaxX)
	}
	if !(p.MinY < p.MaxY) {
		return invalid(pk, "max_y", "must be greater than min_y %v, got %v", p.MinY, p.MaxY)
	}
	return nil
}
