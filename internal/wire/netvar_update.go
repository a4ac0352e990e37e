package wire

// NetvarUpdate (0x34) carries, bit-packed, a single live var change: one group with one entry
// (docs/protocol.md; the bit layout is in the netvar package docs).
//
//	[u8 packet_id = 0x34]
//	[u32 event_id]
//	[u16 len]          // payload bytes, 1..=65529
//	[u8 payload[len]]
//
// Total: 7 + len bytes. Server → Client, reliable event lane, critical; above
// 1200 bytes it travels as Fragments. Both sides reject len 0 and above
// 65529; the payload is the netvar decoder's. Payload aliases the buffer
// given to Parse (decision 0020).
type NetvarUpdate struct{ netvarEvent }

const IDNetvarUpdate = 0x34

func init() { register(IDNetvarUpdate, func() Packet { return new(NetvarUpdate) }) }

func (*NetvarUpdate) ID() byte       { return IDNetvarUpdate }
func (*NetvarUpdate) Name() string   { return "NetvarUpdate" }
func (*NetvarUpdate) Dir() Direction { return ServerToClient }
func (p *NetvarUpdate) Len() int     { return p.len() }

func (p *NetvarUpdate) Append(b []byte) []byte { return p.appendTo(b, IDNetvarUpdate) }

func (p *NetvarUpdate) Parse(b []byte) (int, error) {
	return p.parse(b, IDNetvarUpdate, "NetvarUpdate")
}

// CheckSend is the server's check before sending.
func (p *NetvarUpdate) CheckSend() error { return p.check("NetvarUpdate") }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *NetvarUpdate) CheckRecv() error { return p.check("NetvarUpdate") }
