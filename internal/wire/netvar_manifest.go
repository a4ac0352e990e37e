package wire

// NetvarManifest (0x31) carries, bit-packed, the sealed registry: the ID bit-width in its header, then every var id → name, scope, codec, arg; sent once per connection, the server half of Sync
// (docs/protocol.md; the bit layout is in the netvar package docs).
//
//	[u8 packet_id = 0x31]
//	[u32 event_id]
//	[u16 len]          // payload bytes, 1..=65529
//	[u8 payload[len]]
//
// Total: 7 + len bytes. Server → Client, reliable event lane, critical; above
// 1200 bytes it travels as Fragments. Both sides reject len 0 and above
// 65529; the payload is the netvar decoder's. Payload aliases the buffer
// given to Parse (decision 0020).
type NetvarManifest struct{ netvarEvent }

const IDNetvarManifest = 0x31

func init() { register(IDNetvarManifest, func() Packet { return new(NetvarManifest) }) }

func (*NetvarManifest) ID() byte       { return IDNetvarManifest }
func (*NetvarManifest) Name() string   { return "NetvarManifest" }
func (*NetvarManifest) Dir() Direction { return ServerToClient }
func (p *NetvarManifest) Len() int     { return p.len() }

func (p *NetvarManifest) Append(b []byte) []byte { return p.appendTo(b, IDNetvarManifest) }

func (p *NetvarManifest) Parse(b []byte) (int, error) {
	return p.parse(b, IDNetvarManifest, "NetvarManifest")
}

// CheckSend is the server's check before sending.
func (p *NetvarManifest) CheckSend() error { return p.check("NetvarManifest") }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *NetvarManifest) CheckRecv() error { return p.check("NetvarManifest") }
