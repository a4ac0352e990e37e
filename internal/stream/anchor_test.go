package stream

import (
	"testing"

	"dlmp/internal/grid"
)

func TestAnchor(t *testing.T) {
	var a Anchor
	if !a.Due(grid.Vec{}, 5) {
		t.Fatalf("zero anchor: got not due, want due")
	}
	a.Mark(grid.Vec{X: 10, Y: 10})
	cases := []struct {
		p    grid.Vec
		want bool
	}{
		{grid.Vec{X: 10, Y: 10}, false},
		{grid.Vec{X: 15, Y: 10}, false}, // exactly the threshold
		{grid.Vec{X: 15.01, Y: 10}, true},
		{grid.Vec{X: 10, Y: 10, Z: 6}, true}, // 3D
	}
	for _, c := range cases {
		if got := a.Due(c.p, 5); got != c.want {
			t.Errorf("Due(%v): got %v, want %v", c.p, got, c.want)
		}
	}
	a.Invalidate()
	if !a.Due(grid.Vec{X: 10, Y: 10}, 5) {
		t.Errorf("after Invalidate: got not due, want due")
	}
}
