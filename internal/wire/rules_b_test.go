package wire

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// on adapts a change of one packet type to a ruleCase change.
func on[T any](f func(*T)) func(Packet) { return func(p Packet) { f(any(p).(*T)) } }

var (
	nan32 = float32(math.NaN())
	inf32 = float32(math.Inf(1))
)

// floatCases returns the cases of a float that must be a number within
// [lo, hi], or (lo, hi] when open: each boundary accepted, the next float32
// past it rejected naming field, and NaN, +Inf and −Inf rejected.
func floatCases(field string, set func(Packet, float32), lo, hi float32, open bool) []ruleCase {
	c := func(v float32, want string) ruleCase {
		return ruleCase{fmt.Sprintf("%s = %v", field, v), func(p Packet) { set(p, v) }, want}
	}
	cs := []ruleCase{
		c(hi, ""), c(math.Nextafter32(hi, inf32), field),
		c(nan32, field), c(inf32, field), c(-inf32, field),
	}
	if open {
		return append(cs, c(lo, field), c(math.Nextafter32(lo, inf32), ""))
	}
	return append(cs, c(lo, ""), c(math.Nextafter32(lo, -inf32), field))
}

// finiteCases returns the cases of a float that must only be finite.
func finiteCases(field string, set func(Packet, float32)) []ruleCase {
	c := func(v float32, want string) ruleCase {
		return ruleCase{fmt.Sprintf("%s = %v", field, v), func(p Packet) { set(p, v) }, want}
	}
	return []ruleCase{
		c(math.MaxFloat32, ""), c(-math.MaxFloat32, ""),
		c(nan32, field), c(inf32, field), c(-inf32, field),
	}
}

// worldCases returns the cases of a position that must be within world
// bounds, on each of its three fields.
func worldCases(fx, fy, fz string, set func(p Packet, axis int, v float32)) []ruleCase {
	var cs []ruleCase
	cs = append(cs, floatCases(fx, func(p Packet, v float32) { set(p, 0, v) }, -WorldXY, WorldXY, false)...)
	cs = append(cs, floatCases(fy, func(p Packet, v float32) { set(p, 1, v) }, -WorldXY, WorldXY, false)...)
	return append(cs, floatCases(fz, func(p Packet, v float32) { set(p, 2, v) }, WorldMinZ, WorldMaxZ, false)...)
}

// sendOnly turns cases the server rejects into cases the client accepts.
func sendOnly(cases []ruleCase) []ruleCase {
	out := make([]ruleCase, len(cases))
	for i, c := range cases {
		c.field = ""
		out[i] = c
	}
	return out
}

// checkHide asserts the active contract. A hide whose every byte but the id
// and active is 0xFF (NaN in every float) decodes, passes CheckRecv and
// re-encodes to the same bytes; the same bytes with active = 2 are rejected
// naming active; and every case that rejects a show is accepted by CheckRecv
// on a hide.
func checkHide(t *testing.T, valid func() Packet, activeAt int, cases []ruleCase) {
	t.Helper()
	p := valid()
	garbage := bytes.Repeat([]byte{0xFF}, p.Len())
	garbage[0] = p.ID()
	garbage[activeAt] = 0
	q, err := Unmarshal(garbage)
	if err != nil {
		t.Fatalf("hide with garbage fields: %v, want accepted", err)
	}
	if re := q.Append(nil); !bytes.Equal(re, garbage) {
		t.Errorf("hide with garbage fields re-encodes to\n%x\nwant\n%x", re, garbage)
	}
	garbage[activeAt] = 2
	if _, err := Unmarshal(garbage); err == nil {
		t.Errorf("active = 2 with garbage fields: accepted, want rejected")
	} else if e, ok := err.(*Error); !ok || e.Field != "active" {
		t.Errorf("active = 2 with garbage fields: %v, want an error naming active", err)
	}

	hide := valid().Append(nil)
	hide[activeAt] = 0
	for _, c := range cases {
		if c.field == "" || c.field == "active" {
			continue
		}
		h := valid()
		if _, err := h.Parse(hide); err != nil {
			t.Fatal(err)
		}
		c.change(h)
		if err := h.CheckRecv(); err != nil {
			t.Errorf("hide with %s: %v, want accepted", c.name, err)
		}
	}
}

// TestHideSend: the server may send a hide whatever its other fields hold,
// except a Blip's size and flags (decision 0015).
func TestHideSend(t *testing.T) {
	for _, valid := range []func() Packet{validLabel3D, validCheckpoint, validGangZone, validBox, validMovingObject, validBlip} {
		p := valid()
		garbage := bytes.Repeat([]byte{0xFF}, p.Len())
		garbage[0] = p.ID()
		garbage[9] = 0 // active, right after event_id and the primitive's id
		if _, err := p.Parse(garbage); err != nil {
			t.Fatal(err)
		}
		err := p.CheckSend()
		if p.ID() == IDBlip {
			if e, ok := err.(*Error); !ok || e.Field != "size" {
				t.Errorf("Blip hide with garbage: CheckSend = %v, want an error naming size", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s hide with garbage: CheckSend = %v, want accepted", p.Name(), err)
		}
	}
}
