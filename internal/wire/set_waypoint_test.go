package wire

import "testing"

func validSetWaypoint() Packet { return &SetWaypoint{EventID: 30, Active: 1, X: -2026.5, Y: 156.75} }

func TestSetWaypointExample(t *testing.T) {
	checkExample(t, "set_waypoint.bin", validSetWaypoint())
	checkTruncated(t, validSetWaypoint().Append(nil), func() Packet { return new(SetWaypoint) })
}

func TestSetWaypointRules(t *testing.T) {
	cases := waypointCases(func(p Packet, active uint8, x, y float32) {
		q := p.(*SetWaypoint)
		q.Active, q.X, q.Y = active, x, y
	})
	// Server → Client: the lane numbers the event, so event_id is not a rule.
	cases = append(cases, ruleCase{"event_id 0", func(p Packet) { p.(*SetWaypoint).EventID = 0 }, ""})
	checkRules(t, "server", validSetWaypoint, send, cases)
	checkRules(t, "client", validSetWaypoint, recv, cases)
}

func FuzzSetWaypoint(f *testing.F) {
	f.Add(validSetWaypoint().Append(nil))
	removal := &SetWaypoint{EventID: 2, Active: 0, X: fNaN, Y: -fInf}
	f.Add(removal.Append(nil))
	f.Add([]byte{IDSetWaypoint, 1, 0, 0, 0, 2, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, func() Packet { return new(SetWaypoint) })
	})
}

func BenchmarkSetWaypoint(b *testing.B) {
	benchCodec(b, validSetWaypoint(), func() Packet { return new(SetWaypoint) })
}
