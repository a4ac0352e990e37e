package wire

import "testing"

func validServerHello() Packet {
	return &ServerHello{
		ClientNonce: 0x1122334455667788, SessionToken: 0x0123456789ABCDEF, Version: ProtocolVersion,
		PlayerID: 7, SyncHz: 20, KeepaliveMs: 1000, TimeoutMs: 10000,
		ClockRunning: 1, Hours: 12, Minutes: 30, MinuteMs: 1000,
		Weather: 10, GarageOpen: 1<<0 | 1<<49, MaxPlayers: 100,
	}
}

func sh(f func(p *ServerHello)) func(Packet) { return func(p Packet) { f(p.(*ServerHello)) } }

func TestServerHelloExample(t *testing.T) {
	checkExample(t, "server_hello.bin", validServerHello())
	checkTruncated(t, validServerHello().Append(nil), func() Packet { return new(ServerHello) })
}

func TestServerHelloRules(t *testing.T) {
	cases := []ruleCase{
		{"nonce 0", sh(func(p *ServerHello) { p.ClientNonce = 0 }), "client_nonce"},
		{"token 1", sh(func(p *ServerHello) { p.SessionToken = 1 }), ""},
		{"token 0", sh(func(p *ServerHello) { p.SessionToken = 0 }), "session_token"},
		{"max_players 1000", sh(func(p *ServerHello) { p.MaxPlayers = 1000 }), ""},
		{"max_players 1001", sh(func(p *ServerHello) { p.MaxPlayers = 1001 }), "max_players"},
		{"max_players 1", sh(func(p *ServerHello) { p.MaxPlayers, p.PlayerID = 1, 0 }), ""},
		{"max_players 0", sh(func(p *ServerHello) { p.MaxPlayers, p.PlayerID = 0, 0 }), "max_players"},
		{"player_id 99", sh(func(p *ServerHello) { p.PlayerID = 99 }), ""},
		{"player_id 100 of 100", sh(func(p *ServerHello) { p.PlayerID = 100 }), "player_id"},
		{"player_id 999 of 1000", sh(func(p *ServerHello) { p.PlayerID, p.MaxPlayers = 999, 1000 }), ""},
		{"sync_hz 1", sh(func(p *ServerHello) { p.SyncHz = 1 }), ""},
		{"sync_hz 0", sh(func(p *ServerHello) { p.SyncHz = 0 }), "sync_hz"},
		{"sync_hz 100", sh(func(p *ServerHello) { p.SyncHz = 100 }), ""},
		{"sync_hz 101", sh(func(p *ServerHello) { p.SyncHz = 101 }), "sync_hz"},
		{"keepalive 100", sh(func(p *ServerHello) { p.KeepaliveMs = 100 }), ""},
		{"keepalive 99", sh(func(p *ServerHello) { p.KeepaliveMs = 99 }), "keepalive_ms"},
		{"keepalive 10000", sh(func(p *ServerHello) { p.KeepaliveMs, p.TimeoutMs = 10000, 20000 }), ""},
		{"keepalive 10001", sh(func(p *ServerHello) { p.KeepaliveMs, p.TimeoutMs = 10001, 60000 }), "keepalive_ms"},
		{"timeout 1000", sh(func(p *ServerHello) { p.TimeoutMs, p.KeepaliveMs = 1000, 500 }), ""},
		{"timeout 999", sh(func(p *ServerHello) { p.TimeoutMs, p.KeepaliveMs = 999, 100 }), "timeout_ms"},
		{"timeout 60000", sh(func(p *ServerHello) { p.TimeoutMs = 60000 }), ""},
		{"timeout 60001", sh(func(p *ServerHello) { p.TimeoutMs = 60001 }), "timeout_ms"},
		{"timeout 2x keepalive", sh(func(p *ServerHello) { p.TimeoutMs, p.KeepaliveMs = 2000, 1000 }), ""},
		{"timeout below 2x keepalive", sh(func(p *ServerHello) { p.TimeoutMs, p.KeepaliveMs = 1999, 1000 }), "timeout_ms"},
		{"clock_running 2", sh(func(p *ServerHello) { p.ClockRunning = 2 }), "clock_running"},
		{"hours 23", sh(func(p *ServerHello) { p.Hours = 23 }), ""},
		{"hours 24", sh(func(p *ServerHello) { p.Hours = 24 }), "hours"},
		{"minutes 59", sh(func(p *ServerHello) { p.Minutes = 59 }), ""},
		{"minutes 60", sh(func(p *ServerHello) { p.Minutes = 60 }), "minutes"},
		{"running minute_ms 10", sh(func(p *ServerHello) { p.MinuteMs = 10 }), ""},
		{"running minute_ms 9", sh(func(p *ServerHello) { p.MinuteMs = 9 }), "minute_ms"},
		{"running minute_ms 3600000", sh(func(p *ServerHello) { p.MinuteMs = 3_600_000 }), ""},
		{"running minute_ms 3600001", sh(func(p *ServerHello) { p.MinuteMs = 3_600_001 }), "minute_ms"},
		{"frozen minute_ms 0", sh(func(p *ServerHello) { p.ClockRunning, p.MinuteMs = 0, 0 }), ""},
		{"frozen minute_ms 1", sh(func(p *ServerHello) { p.ClockRunning, p.MinuteMs = 0, 1 }), "minute_ms"},
		{"weather 22", sh(func(p *ServerHello) { p.Weather = 22 }), ""},
		{"weather 23", sh(func(p *ServerHello) { p.Weather = 23 }), "weather"},
		{"garage bit 49", sh(func(p *ServerHello) { p.GarageOpen = 1 << 49 }), ""},
		{"garage bit 50", sh(func(p *ServerHello) { p.GarageOpen = 1 << 50 }), "garage_open"},
		{"garage bit 63", sh(func(p *ServerHello) { p.GarageOpen = 1 << 63 }), "garage_open"},
	}
	checkRules(t, "server", validServerHello, send, cases)
	checkRules(t, "client", validServerHello, recv, cases)
}

func FuzzServerHello(f *testing.F) {
	f.Add(validServerHello().Append(nil))
	f.Add(make([]byte, ServerHelloLen))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ServerHello) }) })
}

func BenchmarkServerHello(b *testing.B) {
	benchCodec(b, validServerHello(), func() Packet { return new(ServerHello) })
}
