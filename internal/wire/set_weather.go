package wire

// SetWeather (0x22) switches the recipient to a weather and holds it
// (world.md).
//
//	[u8 packet_id = 0x22]
//	[u32 event_id]
//	[u8 weather] // weather id, 0..=22
//
// Total: 6 bytes. Server → Client, reliable event lane, to one player,
// alongside SetTime. Both the server and the client decoder reject an id
// above 22: the client indexes its weather table by it, and 0..=22 is the
// complete set the game has.
type SetWeather struct {
	EventID uint32 `json:"event_id"`
	Weather uint8  `json:"weather"`
}

const (
	IDSetWeather  = 0x22
	SetWeatherLen = 6
	// MaxWeather is the highest weather id the game has.
	MaxWeather = 22
)

func init() { register(IDSetWeather, func() Packet { return new(SetWeather) }) }

func (*SetWeather) ID() byte       { return IDSetWeather }
func (*SetWeather) Name() string   { return "SetWeather" }
func (*SetWeather) Dir() Direction { return ServerToClient }
func (*SetWeather) Len() int       { return SetWeatherLen }

func (p *SetWeather) Append(b []byte) []byte {
	b = append(b, IDSetWeather)
	b = appendU32(b, p.EventID)
	return append(b, p.Weather)
}

func (p *SetWeather) Parse(b []byte) (int, error) {
	if err := head(b, IDSetWeather, SetWeatherLen, "SetWeather"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Weather = c.u8()
	return SetWeatherLen, nil
}

// CheckSend is the server's check before sending: the same range.
func (p *SetWeather) CheckSend() error { return CheckWeather("SetWeather", p.Weather) }

// CheckRecv is the client decoder's check.
func (p *SetWeather) CheckRecv() error { return CheckWeather("SetWeather", p.Weather) }

// CheckWeather checks a weather id (0..=MaxWeather) for packet; ServerHello
// carries one too.
func CheckWeather(packet string, weather uint8) error {
	if weather > MaxWeather {
		return invalid(packet, "weather", "must be 0..=22, got %d", weather)
	}
	return nil
}
