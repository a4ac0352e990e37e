package wire

// SetSkin (0x20) changes the recipient's own skin (docs/protocol.md).
//
//	[u8 packet_id = 0x20]
//	[u32 event_id]
//	[u16 skin] // 0..=311 except 74
//
// Total: 7 bytes. Server → Client, reliable event lane, critical. Both sides
// reject skin above 311 and skin 74.
type SetSkin struct {
	EventID uint32 `json:"event_id"`
	Skin    uint16 `json:"skin"`
}

const (
	IDSetSkin  = 0x20
	SetSkinLen = 7
)

func init() { register(IDSetSkin, func() Packet { return new(SetSkin) }) }

func (*SetSkin) ID() byte       { return IDSetSkin }
func (*SetSkin) Name() string   { return "SetSkin" }
func (*SetSkin) Dir() Direction { return ServerToClient }
func (*SetSkin) Len() int       { return SetSkinLen }

func (p *SetSkin) Append(b []byte) []byte {
	b = append(b, IDSetSkin)
	b = appendU32(b, p.EventID)
	b = appendU16(b, p.Skin)
	return b
}

func (p *SetSkin) Parse(b []byte) (int, error) {
	if err := head(b, IDSetSkin, SetSkinLen, "SetSkin"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Skin = c.u16()
	return SetSkinLen, nil
}

// CheckSend is the server's check before sending.
func (p *SetSkin) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *SetSkin) CheckRecv() error { return p.check() }

func (p *SetSkin) check() error {
	const pk = "SetSkin"
	return checkSkin(pk, p.Skin)
}
