package wire

import (
	"fmt"
	"math"
	"testing"
)

func validSphere() Packet {
	return &ColshapeShape{EventID: 8, ColshapeID: 501, Active: 1, Form: FormSphere, AX: 1958.5, AY: -1710, AZ: 15, BX: 12.5, Rev: 2}
}

func validCylinder() Packet {
	return &ColshapeShape{EventID: 9, ColshapeID: 502, Active: 1, Form: FormCylinder, AX: -1980, AY: 880.25, AZ: 44, BX: 6, BY: 20, Rev: 1}
}

func validBox() Packet {
	return &ColshapeShape{EventID: 10, ColshapeID: 503, Active: 1, Form: FormBox, AX: -10, AY: -20, AZ: 5, BX: 30, BY: 40, BZ: 25, Rev: 7}
}

func TestColshapeShapeExample(t *testing.T) {
	checkExample(t, "colshape_shape.bin", validCylinder())
	checkTruncated(t, validCylinder().Append(nil), func() Packet { return new(ColshapeShape) })
}

// cs gives access to a colshape's six floats by index: a_x, a_y, a_z, b_x, b_y, b_z.
func cs(p Packet, i int) *float32 {
	c := p.(*ColshapeShape)
	return []*float32{&c.AX, &c.AY, &c.AZ, &c.BX, &c.BY, &c.BZ}[i]
}

var csFields = [6]string{"a_x", "a_y", "a_z", "b_x", "b_y", "b_z"}

func csSet(i int) func(Packet, float32) { return func(p Packet, v float32) { *cs(p, i) = v } }

// colshapeCommonCases hold for every form: active, form and a within world bounds.
func colshapeCommonCases() []ruleCase {
	cc := func(f func(*ColshapeShape)) func(Packet) { return on(f) }
	cases := []ruleCase{
		{"active 0", cc(func(p *ColshapeShape) { p.Active = 0 }), ""},
		{"active 2", cc(func(p *ColshapeShape) { p.Active = 2 }), "active"},
		{"form 3", cc(func(p *ColshapeShape) { p.Form = 3 }), "form"},
		{"form 255", cc(func(p *ColshapeShape) { p.Form = 255 }), "form"},
	}
	return cases
}

// unusedCases: a field the form does not use takes 0 and −0 only.
func unusedCases(i int) []ruleCase {
	f := csFields[i]
	set := func(v float32) func(Packet) { return func(p Packet) { *cs(p, i) = v } }
	return []ruleCase{
		{f + " = 0", set(0), ""},
		{f + " = -0", set(float32(math.Copysign(0, -1))), ""},
		{f + " = smallest float", set(math.SmallestNonzeroFloat32), f},
		{f + " = -1", set(-1), f},
		{f + " = NaN", set(nan32), f},
		{f + " = +Inf", set(inf32), f},
		{f + " = -Inf", set(-inf32), f},
	}
}

func worldA() []ruleCase {
	return worldCases("a_x", "a_y", "a_z", func(p Packet, axis int, v float32) { *cs(p, axis) = v })
}

func sphereCases() []ruleCase {
	cases := append(colshapeCommonCases(), worldA()...)
	cases = append(cases, floatCases("b_x", csSet(3), 0, MaxColshapeExtent, true)...)
	cases = append(cases, unusedCases(4)...)
	return append(cases, unusedCases(5)...)
}

func cylinderCases() []ruleCase {
	cases := append(colshapeCommonCases(), worldA()...)
	cases = append(cases, floatCases("b_x", csSet(3), 0, MaxColshapeExtent, true)...)
	cases = append(cases, floatCases("b_y", csSet(4), 0, MaxColshapeExtent, true)...)
	return append(cases, unusedCases(5)...)
}

// boxCases: per axis, min on its lower bound and max on its upper one
// accepted, past them rejected, non-numbers rejected, and min reaching max
// rejected naming the max.
func boxCases() []ruleCase {
	cases := colshapeCommonCases()
	lows := [3]float32{-WorldXY, -WorldXY, WorldMinZ}
	highs := [3]float32{WorldXY, WorldXY, WorldMaxZ}
	for axis := range 3 {
		a, b := axis, axis+3
		fa, fb := csFields[a], csFields[b]
		set := func(i int, v float32) func(Packet) { return func(p Packet) { *cs(p, i) = v } }
		c := func(i int, v float32, want string) ruleCase {
			return ruleCase{fmt.Sprintf("%s = %v", csFields[i], v), set(i, v), want}
		}
		lo, hi := lows[axis], highs[axis]
		cases = append(cases,
			c(a, lo, ""), c(a, math.Nextafter32(lo, -inf32), fa), c(a, math.Nextafter32(hi, inf32), fa),
			c(b, hi, ""), c(b, math.Nextafter32(hi, inf32), fb), c(b, math.Nextafter32(lo, -inf32), fb),
			c(a, nan32, fa), c(a, inf32, fa), c(a, -inf32, fa),
			c(b, nan32, fb), c(b, inf32, fb), c(b, -inf32, fb),
			ruleCase{fb + " just above " + fa, func(p Packet) { *cs(p, b) = math.Nextafter32(*cs(p, a), inf32) }, ""},
			ruleCase{fb + " = " + fa, func(p Packet) { *cs(p, b) = *cs(p, a) }, fb},
			ruleCase{fb + " just below " + fa, func(p Packet) { *cs(p, b) = math.Nextafter32(*cs(p, a), -inf32) }, fb},
			ruleCase{fa + " = " + fb, func(p Packet) { *cs(p, a) = *cs(p, b) }, fb},
		)
	}
	return cases
}

func TestColshapeShapeRules(t *testing.T) {
	forms := []struct {
		name  string
		valid func() Packet
		cases []ruleCase
	}{
		{"sphere", validSphere, sphereCases()},
		{"cylinder", validCylinder, cylinderCases()},
		{"box", validBox, boxCases()},
	}
	for _, f := range forms {
		checkRules(t, "server "+f.name, f.valid, send, f.cases)
		checkRules(t, "client "+f.name, f.valid, recv, f.cases)
		checkHide(t, f.valid, 9, f.cases)
	}
}

// TestColshapeShapeFormChange: the same b read by another form follows that
// form's rules.
func TestColshapeShapeFormChange(t *testing.T) {
	cases := []ruleCase{
		{"cylinder as sphere", on(func(p *ColshapeShape) { p.Form = FormSphere }), "b_y"},
		{"cylinder as box", on(func(p *ColshapeShape) { p.Form = FormBox }), "b_y"},
	}
	checkRules(t, "client", validCylinder, recv, cases)
	box := []ruleCase{
		{"box as cylinder", on(func(p *ColshapeShape) { p.Form = FormCylinder }), "b_z"},
		{"box as sphere", on(func(p *ColshapeShape) { p.Form = FormSphere }), "b_y"},
	}
	checkRules(t, "client", validBox, recv, box)
}

func FuzzColshapeShape(f *testing.F) {
	for _, p := range []Packet{validSphere(), validCylinder(), validBox()} {
		f.Add(p.Append(nil))
	}
	hide := validBox().Append(nil)
	hide[9] = 0
	f.Add(hide)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ColshapeShape) }) })
}

func BenchmarkColshapeShape(b *testing.B) {
	benchCodec(b, validBox(), func() Packet { return new(ColshapeShape) })
}
