package grid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestShellAheadMatchesOracle walks points in straight lines (each turning
// now and then) over entities of short radii in small cells, where the
// ball a shell is built for lies ahead of the point (decision 0358) and
// reaches cells the step's own scan does not: every DiffIn step is checked
// against the oracle's answers, and a straight walker must get more steps
// from a shell than a ball centered on it gives (three, decision 0211).
func TestShellAheadMatchesOracle(t *testing.T) {
	const skin, stepLen = 25, 7
	var steps, shellSteps, builds int
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 31))
		g := New(16)
		o := &oracle{ents: map[Handle]oracleEnt{}}
		for key := range uint32(3000) {
			pos := Vec{rng.Float32()*600 - 300, rng.Float32()*600 - 300, rng.Float32()*10 - 5}
			r := []float32{5, 12, 30, 45}[rng.IntN(4)]
			if seed%2 == 1 {
				r = 30 // one radius, as a pickup grid's
			}
			h := g.Insert(key, pos, r)
			rev := uint32(rng.IntN(100))
			g.SetRev(h, rev)
			o.ents[h] = oracleEnt{key, rev, pos, r * r, 1}
		}
		if seed >= 2 {
			g.Compact()
		}
		for range 8 {
			var sh Shell
			var s Step
			from := Vec{rng.Float32()*200 - 100, rng.Float32()*200 - 100, 0}
			a := rng.Float64() * 2 * math.Pi
			for k := range 60 {
				if k%20 == 19 {
					a += (rng.Float64() - 0.5) * math.Pi // a turn
				}
				to := Vec{from.X + stepLen*float32(math.Cos(a)), from.Y + stepLen*float32(math.Sin(a)), from.Z}
				was, now := o.covering(from), o.covering(to)
				if !g.DiffIn(&sh, skin, from, to, NoLimit, AllCut, testSum, &s) {
					t.Fatalf("seed %d: %v → %v: an uncut step refused", seed, from, to)
				}
				checkDiff(t, &s, was, now)
				if !slices.Equal(keysOf(s.Enter), keysOf(enterOf(was, now))) {
					t.Fatalf("seed %d: %v → %v: entries differ", seed, from, to)
				}
				steps++
				if s.Shell {
					shellSteps++
				} else {
					builds++
				}
				from = to
			}
		}
	}
	// Centered on the point, a 7 m walker leaves a 25 m ball on its fourth
	// step: three shell steps a build. Ahead, the walker crosses it.
	if per := float64(shellSteps) / float64(builds); per < 4.5 {
		t.Errorf("%d shell steps for %d builds (%.2f a build), want at least 4.5 a build", shellSteps, builds, per)
	}
	t.Logf("%d steps, %d from a shell, %d built", steps, shellSteps, builds)
}

// keysOf returns the sorted keys of hs.
func keysOf(hs []Hit) []uint32 {
	ks := make([]uint32, 0, len(hs))
	for _, h := range hs {
		ks = append(ks, h.Key)
	}
	slices.Sort(ks)
	return ks
}

// enterOf returns the hits of now that are not in was.
func enterOf(was, now []Hit) []Hit {
	var e []Hit
	for _, h := range now {
		if !slices.ContainsFunc(was, func(x Hit) bool { return x.Key == h.Key }) {
			e = append(e, h)
		}
	}
	return e
}
