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
		var fields []reflect.StructField // in wire order, embedded structs flattened
		for _, f := range reflect.VisibleFields(reflect.TypeOf(p).Elem()) {
			if !f.Anonymous {
				fields = append(fields, f)
			}
		}
		tag := func(i int) string {
			if i >= len(fields) {
				return ""
			}
			return fields[i].Tag.Get("json")
		}
		switch l {
		case LaneReliable:
			if tag(0) != "event_id" || fields[0].Type.Kind() != reflect.Uint32 {
				t.Errorf("%s: first field is %q, want the u32 event_id", p.Name(), tag(0))
			}
		case LaneGoBackN:
			if tag(0) != "token" || tag(1) != "event_id" {
				t.Errorf("%s: first fields are %q, %q, want token, event_id", p.Name(), tag(0), tag(1))
			}
		}
	}
}
