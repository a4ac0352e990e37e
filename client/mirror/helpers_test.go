package mirror

import (
	"testing"
	"time"

	"dlmp/internal/wire"
)

// t0 is the virtual time every test starts at.
var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// at returns t0 plus ms milliseconds.
func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

const selfID = 7

// frozenHello is a valid ServerHello with the clock held at 12:30.
func frozenHello() *wire.ServerHello {
	return &wire.ServerHello{
		ClientNonce: 1, SessionToken: 2, Version: wire.ProtocolVersion,
		PlayerID: selfID, SyncHz: 20, KeepaliveMs: 1000, TimeoutMs: 10000,
		Hours: 12, Minutes: 30, Weather: 10, GarageOpen: 1<<0 | 1<<49, MaxPlayers: 100,
	}
}

// newMirror returns a mirror joined at t0 with hello, which must be valid.
func newMirror(t testing.TB, hello *wire.ServerHello) *Mirror {
	t.Helper()
	if err := hello.CheckRecv(); err != nil {
		t.Fatalf("test ServerHello is invalid: %v", err)
	}
	return New(hello, t0)
}

// apply feeds p at now after checking that the client decoder accepts it:
// the mirror is only ever fed packets that passed CheckRecv.
func apply(t testing.TB, m *Mirror, p wire.Packet, now time.Time) {
	t.Helper()
	if err := p.CheckRecv(); err != nil {
		t.Fatalf("test %s is invalid: %v", p.Name(), err)
	}
	m.Apply(p, now)
}

// spawn spawns the local player at pos with heading.
func spawn(t testing.TB, m *Mirror, event uint32, pos Vec3, heading float32, now time.Time) {
	t.Helper()
	apply(t, m, &wire.SpawnPlayer{
		EventID: event, X: float32(pos.X), Y: float32(pos.Y), Z: float32(pos.Z),
		Heading: heading, Skin: 1, Health: 100,
	}, now)
}

// showPlayer shows player id and moves them to pos with heading.
func showPlayer(t testing.TB, m *Mirror, id uint16, seq uint32, pos Vec3, heading float32, now time.Time) {
	t.Helper()
	show := &wire.PlayerShow{PlayerID: id, Active: 1, Skin: 2, Color: 0xFF0000}
	copy(show.PlayerName[:], "Other")
	apply(t, m, show, now)
	movePlayer(t, m, id, seq, pos, heading, now)
}

func movePlayer(t testing.TB, m *Mirror, id uint16, seq uint32, pos Vec3, heading float32, now time.Time) {
	t.Helper()
	apply(t, m, &wire.PlayerMove{
		Seq: seq, PlayerID: id, State: wire.StateOnFoot,
		X: float32(pos.X), Y: float32(pos.Y), Z: float32(pos.Z), Heading: heading, Health: 100,
	}, now)
}
