package wire

// SetTime (0x21) stops the recipient's clock at hours:minutes (world.md).
//
//	[u8 packet_id = 0x21]
//	[u32 event_id]
//	[u8 hours]   // 0..=23
//	[u8 minutes] // 0..=59
//
// Total: 7 bytes. Server → Client, reliable event lane. Both the server and
// the client decoder reject hours outside 0..=23 and minutes outside 0..=59.
type SetTime struct {
	EventID uint32 `json:"event_id"`
	Hours   uint8  `json:"hours"`
	Minutes uint8  `json:"minutes"`
}

const (
	IDSetTime  = 0x21
	SetTimeLen = 7
)

func init() { register(IDSetTime, func() Packet { return new(SetTime) }) }

func (*SetTime) ID() byte       { return IDSetTime }
func (*SetTime) Name() string   { return "SetTime" }
func (*SetTime) Dir() Direction { return ServerToClient }
func (*SetTime) Len() int       { return SetTimeLen }

func (p *SetTime) Append(b []byte) []byte {
	b = append(b, IDSetTime)
	b = appendU32(b, p.EventID)
	return append(b, p.Hours, p.Minutes)
}

func (p *SetTime) Parse(b []byte) (int, error) {
	if err := head(b, IDSetTime, SetTimeLen, "SetTime"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Hours = c.u8()
	p.Minutes = c.u8()
	return SetTimeLen, nil
}

// CheckSend is the server's check before sending: the same ranges.
func (p *SetTime) CheckSend() error { return checkClock("SetTime", p.Hours, p.Minutes) }

// CheckRecv is the client decoder's check.
func (p *SetTime) CheckRecv() error { return checkClock("SetTime", p.Hours, p.Minutes) }

// checkClock checks a time of day; RunClock shares it.
func checkClock(packet string, hours, minutes uint8) error {
	if hours > 23 {
		return invalid(packet, "hours", "must be 0..=23, got %d", hours)
	}
	if minutes > 59 {
		return invalid(packet, "minutes", "must be 0..=59, got %d", minutes)
	}
	return nil
}
