package wire

import (
	"reflect"
	"testing"
)

// TestLanes: every registered packet has a lane that agrees with its
// direction, and every lane in the table belongs to a registered packet
// once all codecs exist (ids without a codec yet are listed).
func TestLanes(t *testing.T) {
	for _, id := range IDs() {
		p := New(id)
		l := LaneOf(id)
		switch {
		case l == LaneNone:
			t.Errorf("%s (0x%02X) has no lane", p.Name(), id)
		case l == LaneReliable && p.Dir() != ServerToClient:
			t.Errorf("%s is on the reliable lane but sent by the client", p.Name())
		case l == LaneGoBackN && p.Dir() != ClientToServer:
			t.Errorf("%s is on the Go-Back-N lane but sent by the server", p.Name())
		}
		// The event id sits where the lanes expect it: the first field
		// (bytes 1..5) on the reliable lane; token then event_id (bytes
		// 1..9, 9..13) on the Go-Back-N lane.
		typ := reflect.TypeOf(p).Elem()
		tag := func(i int) string {
			if i >= typ.NumField() {
				return ""
			}
			return typ.Field(i).Tag.Get("json")
		}
		switch l {
		case LaneReliable:
			if tag(0) != "event_id" || typ.Field(0).Type.Kind() != reflect.Uint32 {
				t.Errorf("%s: first field is %q, want the u32 event_id", p.Name(), tag(0))
			}
		case LaneGoBackN:
			if tag(0) != "token" || tag(1) != "event_id" {
				t.Errorf("%s: first fields are %q, %q, want token, event_id", p.Name(), tag(0), tag(1))
			}
		}
	}
}
