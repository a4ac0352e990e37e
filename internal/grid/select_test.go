package grid

import (
	"slices"
	"testing"
)

// TestNearestSpanTooSmallToDivide lists the 10 nearest of 300 entities
// that stand at the query point or 1e-20 m from it: their squared
// distances, 0 and 1e-40, span less than float32 can divide into buckets
// (buckets/(hi-lo) is +Inf). Nearest once took that to a bucket index out
// of range and panicked; the answer is the 10 at the point with the least
// keys.
func TestNearestSpanTooSmallToDivide(t *testing.T) {
	g := New(64)
	for i := range 300 {
		p := Vec{}
		if i%2 == 1 {
			p.X = 1e-20
		}
		g.Insert(uint32(i), p, 300)
	}
	var got []uint32
	for _, h := range g.Nearest(Vec{}, 10, nil) {
		got = append(got, h.Key)
	}
	slices.Sort(got)
	want := []uint32{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}
	if !slices.Equal(got, want) {
		t.Errorf("nearest keys %v, want %v", got, want)
	}
}

// TestCutoffSpanTooSmallToDivide: Nearest's bound over hits whose squared
// distances, 0 and 1e-40, span less than float32 can divide into buckets
// is their farthest distance (no tighter bound is known), not a panic.
func TestCutoffSpanTooSmallToDivide(t *testing.T) {
	hs := make([]Hit, 300)
	for i := range hs {
		hs[i] = Hit{Key: uint32(i), Weight: 1}
		if i%2 == 1 {
			hs[i].Dist2 = 1e-40
		}
	}
	if got := cutoff(hs, 10, 0, 1e-40); got != 1e-40 {
		t.Errorf("cutoff %g, want 1e-40", got)
	}
}
