package wire

// NetvarResync (0x33) carries, bit-packed, batched per-entity and global var groups, each an index header (and for a player the UserID modulo 2^16) then var entries; flushed at cityrp_network_sync_bytes
// (docs/protocol.md; the bit layout is in the netvar package docs).
//
//	[u8 packet_id = 0x33]
//	[u32 event_id]
//	[u16 len]          // payload bytes, 1..=65529
//	[u8 payload[len]]
//
// Total: 7 + len bytes. Server → Client, reliable event lane, critical; above
// 1200 bytes it travels as Fragments. Both sides reject len 0 and above
// 65529; the payload is the netvar decoder's. Payload aliases the buffer
// given to Parse (decision 0020).
type NetvarResync struct{ netvarEvent }

const IDNetvarResync = 0x33

func init() { register(IDNetvarResync, func() Packet { return new(NetvarResync) }) }

func (*NetvarResync) ID() byte       { return IDNetvarResync }
func (*NetvarResync) Name() string   { return "NetvarResync" }
func (*NetvarResync) Dir() Direction { return ServerToClient }
func (p *NetvarResync) Len() int     { return p.len() }

func (p *NetvarResync) Append(b []byte) []byte { return p.appendTo(b, IDNetvarResync) }

func (p *NetvarResync) Parse(b []byte) (int, error) {
	return p.parse(b, IDNetvarResync, "NetvarResync")
}

// CheckSend is the server's check before sending.
func (p *NetvarResync) CheckSend() error { return p.check("NetvarResync") }

// CheckRecv is the client decoder's check: what it drops without an ack.
func (p *NetvarResync) CheckRecv() error { return p.check("NetvarResync") }
