package wire

import (
	"math"
	"testing"
)

func validPickupTouch() Packet {
	return &PickupTouch{Token: 0x1122334455667788, EventID: 9, PickupID: 3}
}

func TestPickupTouchExample(t *testing.T) {
	checkExample(t, "pickup_touch.bin", validPickupTouch())
	checkTruncated(t, validPickupTouch().Append(nil), func() Packet { return new(PickupTouch) })
}

func TestPickupTouchRules(t *testing.T) {
	set := func(f func(q *PickupTouch)) func(Packet) { return func(p Packet) { f(p.(*PickupTouch)) } }
	recvCases := []ruleCase{
		{"event_id 1", set(func(q *PickupTouch) { q.EventID = 1 }), ""},
		{"event_id 0", set(func(q *PickupTouch) { q.EventID = 0 }), "event_id"},
		{"event_id max", set(func(q *PickupTouch) { q.EventID = math.MaxUint32 }), ""},
		{"token 0", set(func(q *PickupTouch) { q.Token = 0 }), ""},
		{"pickup_id 0", set(func(q *PickupTouch) { q.PickupID = 0 }), ""},
		{"pickup_id max", set(func(q *PickupTouch) { q.PickupID = math.MaxUint32 }), ""},
	}
	checkRules(t, "server", validPickupTouch, recv, recvCases)
	// The lane writes event_id after the client's checks: a packet built
	// with event_id 0 passes them.
	sendCases := []ruleCase{
		{"event_id 0 before the lane numbers it", set(func(q *PickupTouch) { q.EventID = 0 }), ""},
		{"everything zero", set(func(q *PickupTouch) { *q = PickupTouch{} }), ""},
	}
	checkRules(t, "client", validPickupTouch, send, sendCases)
}

func FuzzPickupTouch(f *testing.F) {
	f.Add(validPickupTouch().Append(nil))
	f.Add([]byte{IDPickupTouch, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(PickupTouch) }) })
}

func BenchmarkPickupTouch(b *testing.B) {
	benchCodec(b, validPickupTouch(), func() Packet { return new(PickupTouch) })
}
