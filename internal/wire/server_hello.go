package wire

// ServerHello (0x02) accepts a connection and gives the client its session
// and the world state it needs at join (docs/protocol.md).
//
//	[u8 packet_id = 0x02]
//	[u64 client_nonce]   // the ClientHello's, echoed
//	[u64 session_token]  // from crypto/rand, never 0
//	[u16 version]        // the protocol version
//	[u16 player_id]      // the client's own player id, 0..=999, below max_players
//	[u8 sync_hz]         // the PlayerSync rate and the client's tick, 1..=100
//	[u16 keepalive_ms]   // 100..=10000
//	[u16 timeout_ms]     // 1000..=60000, at least 2 × keepalive_ms
//	[u8 clock_running]   // 0 frozen (as SetTime), 1 running (as RunClock)
//	[u8 hours]           // 0..=23
//	[u8 minutes]         // 0..=59
//	[u32 minute_ms]      // running: 10..=3_600_000; frozen: 0
//	[u8 weather]         // 0..=22
//	[u64 garage_open]    // bits 50..63 = 0
//	[u16 max_players]    // 1..=1000
//
// Total: 44 bytes. Server → Client, control. The server checks every rule
// before sending and the client decoder checks them again.
type ServerHello struct {
	ClientNonce  uint64 `json:"client_nonce"`
	SessionToken uint64 `json:"session_token"`
	Version      uint16 `json:"version"`
	PlayerID     uint16 `json:"player_id"`
	SyncHz       uint8  `json:"sync_hz"`
	KeepaliveMs  uint16 `json:"keepalive_ms"`
	TimeoutMs    uint16 `json:"timeout_ms"`
	ClockRunning uint8  `json:"clock_running"`
	Hours        uint8  `json:"hours"`
	Minutes      uint8  `json:"minutes"`
	MinuteMs     uint32 `json:"minute_ms"`
	Weather      uint8  `json:"weather"`
	GarageOpen   uint64 `json:"garage_open"`
	MaxPlayers   uint16 `json:"max_players"`
}

const (
	IDServerHello  = 0x02
	ServerHelloLen = 44

	MaxSyncHz      = 100
	MinKeepaliveMs = 100
	MaxKeepaliveMs = 10000
	MinTimeoutMs   = 1000
	MaxTimeoutMs   = 60000
)

func init() { register(IDServerHello, func() Packet { return new(ServerHello) }) }

func (*ServerHello) ID() byte       { return IDServerHello }
func (*ServerHello) Name() string   { return "ServerHello" }
func (*ServerHello) Dir() Direction { return ServerToClient }
func (*ServerHello) Len() int       { return ServerHelloLen }

func (p *ServerHello) Append(b []byte) []byte {
	b = append(b, IDServerHello)
	b = appendU64(b, p.ClientNonce)
	b = appendU64(b, p.SessionToken)
	b = appendU16(b, p.Version)
	b = appendU16(b, p.PlayerID)
	b = append(b, p.SyncHz)
	b = appendU16(b, p.KeepaliveMs)
	b = appendU16(b, p.TimeoutMs)
	b = append(b, p.ClockRunning, p.Hours, p.Minutes)
	b = appendU32(b, p.MinuteMs)
	b = append(b, p.Weather)
	b = appendU64(b, p.GarageOpen)
	return appendU16(b, p.MaxPlayers)
}

func (p *ServerHello) Parse(b []byte) (int, error) {
	if err := head(b, IDServerHello, ServerHelloLen, "ServerHello"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.ClientNonce = c.u64()
	p.SessionToken = c.u64()
	p.Version = c.u16()
	p.PlayerID = c.u16()
	p.SyncHz = c.u8()
	p.KeepaliveMs = c.u16()
	p.TimeoutMs = c.u16()
	p.ClockRunning = c.u8()
	p.Hours = c.u8()
	p.Minutes = c.u8()
	p.MinuteMs = c.u32()
	p.Weather = c.u8()
	p.GarageOpen = c.u64()
	p.MaxPlayers = c.u16()
	return ServerHelloLen, nil
}

// CheckSend is the server's check before sending.
func (p *ServerHello) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check. Whether client_nonce and version
// are the ones the client sent is its stateful check.
func (p *ServerHello) CheckRecv() error { return p.check() }

func (p *ServerHello) check() error {
	const pk = "ServerHello"
	switch {
	case p.ClientNonce == 0:
		return invalid(pk, "client_nonce", "must not be 0")
	case p.SessionToken == 0:
		return invalid(pk, "session_token", "must not be 0")
	case p.MaxPlayers == 0 || p.MaxPlayers > MaxPlayers:
		return invalid(pk, "max_players", "must be 1..=1000, got %d", p.MaxPlayers)
	case p.PlayerID >= p.MaxPlayers:
		return invalid(pk, "player_id", "must be below max_players (%d), got %d", p.MaxPlayers, p.PlayerID)
	case p.SyncHz == 0 || p.SyncHz > MaxSyncHz:
		return invalid(pk, "sync_hz", "must be 1..=100, got %d", p.SyncHz)
	case p.KeepaliveMs < MinKeepaliveMs || p.KeepaliveMs > MaxKeepaliveMs:
		return invalid(pk, "keepalive_ms", "must be 100..=10000, got %d", p.KeepaliveMs)
	case p.TimeoutMs < MinTimeoutMs || p.TimeoutMs > MaxTimeoutMs:
		return invalid(pk, "timeout_ms", "must be 1000..=60000, got %d", p.TimeoutMs)
	case uint32(p.TimeoutMs) < 2*uint32(p.KeepaliveMs):
		return invalid(pk, "timeout_ms", "must be at least 2 × keepalive_ms (%d), got %d", 2*uint32(p.KeepaliveMs), p.TimeoutMs)
	}
	if err := checkBool(pk, "clock_running", p.ClockRunning); err != nil {
		return err
	}
	if err := checkClock(pk, p.Hours, p.Minutes); err != nil {
		return err
	}
	switch {
	case p.ClockRunning == 0 && p.MinuteMs != 0:
		return invalid(pk, "minute_ms", "must be 0 while the clock is frozen, got %d", p.MinuteMs)
	}
	if p.ClockRunning == 1 {
		if err := CheckMinuteMs(pk, "minute_ms", p.MinuteMs); err != nil {
			return err
		}
	}
	if err := CheckWeather(pk, p.Weather); err != nil {
		return err
	}
	return CheckGarageMask(pk, "garage_open", p.GarageOpen)
}
