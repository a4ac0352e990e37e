package wire

import (
	"math"
	"testing"
)

func validPlayerWaypoint() Packet {
	return &PlayerWaypoint{Token: 0x0102030405060708, EventID: 4, Active: 1, X: 1544.5, Y: -1675.25}
}

func TestPlayerWaypointExample(t *testing.T) {
	checkExample(t, "player_waypoint.bin", validPlayerWaypoint())
	checkTruncated(t, validPlayerWaypoint().Append(nil), func() Packet { return new(PlayerWaypoint) })
}

func TestPlayerWaypointRules(t *testing.T) {
	cases := waypointCases(func(p Packet, active uint8, x, y float32) {
		q := p.(*PlayerWaypoint)
		q.Active, q.X, q.Y = active, x, y
	})
	eventID := func(id uint32) func(Packet) { return func(p Packet) { p.(*PlayerWaypoint).EventID = id } }
	checkRules(t, "server", validPlayerWaypoint, recv, append(cases,
		ruleCase{"event_id 1", eventID(1), ""},
		ruleCase{"event_id max", eventID(math.MaxUint32), ""},
		ruleCase{"event_id 0", eventID(0), "event_id"},
	))
	// The client's lane writes event_id after the send checks.
	checkRules(t, "client", validPlayerWaypoint, send, append(cases,
		ruleCase{"event_id 0 before the lane numbers it", eventID(0), ""},
	))
}

func FuzzPlayerWaypoint(f *testing.F) {
	f.Add(validPlayerWaypoint().Append(nil))
	removal := &PlayerWaypoint{Token: 1, EventID: 2, Active: 0, X: fNaN, Y: fInf}
	f.Add(removal.Append(nil))
	f.Add([]byte{IDPlayerWaypoint, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, func() Packet { return new(PlayerWaypoint) })
	})
}

func BenchmarkPlayerWaypoint(b *testing.B) {
	benchCodec(b, validPlayerWaypoint(), func() Packet { return new(PlayerWaypoint) })
}
