package wire

// ChatMessage (0x08) is a chat line shown to the recipient
// (docs/protocol.md).
//
//	[u8 packet_id = 0x08]
//	[u32 event_id]
//	[u16 from]      // the player who said it, 0..=999, or 0xFFFF for the server
//	[u32 color]     // 0xRRGGBB
//	[u8 len]        // text bytes, 1..=144
//	[u8 text[len]]  // UTF-8, no control characters
//
// Total: 12 + len bytes. Server → Client, reliable event lane, droppable.
// Both the server and the client decoder check every rule. The text is a
// [ChatText] (decision 0020).
type ChatMessage struct {
	EventID uint32   `json:"event_id"`
	From    uint16   `json:"from"`
	Color   uint32   `json:"color"`
	Text    ChatText `json:"text"`
}

const (
	IDChatMessage        = 0x08
	ChatMessageHeaderLen = 12 // the packet without its text
)

func init() { register(IDChatMessage, func() Packet { return new(ChatMessage) }) }

func (*ChatMessage) ID() byte       { return IDChatMessage }
func (*ChatMessage) Name() string   { return "ChatMessage" }
func (*ChatMessage) Dir() Direction { return ServerToClient }
func (p *ChatMessage) Len() int     { return ChatMessageHeaderLen + int(p.Text.N) }

func (p *ChatMessage) Append(b []byte) []byte {
	b = append(b, IDChatMessage)
	b = appendU32(b, p.EventID)
	b = appendU16(b, p.From)
	b = appendU32(b, p.Color)
	return p.Text.append(b)
}

func (p *ChatMessage) Parse(b []byte) (int, error) {
	if err := head(b, IDChatMessage, ChatMessageHeaderLen, "ChatMessage"); err != nil {
		return 0, err
	}
	n := ChatMessageHeaderLen + int(b[ChatMessageHeaderLen-1])
	if err := need(b, n, "ChatMessage", "text"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.From = c.u16()
	p.Color = c.u32()
	p.Text.parse(&c)
	return n, nil
}

// CheckSend is the server's check before sending.
func (p *ChatMessage) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *ChatMessage) CheckRecv() error { return p.check() }

func (p *ChatMessage) check() error {
	if p.From != ServerPlayerID {
		if err := checkPlayerID("ChatMessage", "from", p.From); err != nil {
			return err
		}
	}
	if err := checkColor("ChatMessage", "color", p.Color); err != nil {
		return err
	}
	return checkChatText("ChatMessage", p.Text.Bytes())
}
