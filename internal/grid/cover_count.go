package grid

import (
	"math"
	"math/bits"
)

// CoverReach returns how far from a point, along each axis, a [Grid.Covering]
// query at it looks: the largest radius in the grid and the slack. The
// query reads the cells that hold some point within the reach of it along
// both axes, and only their entities.
func (g *Grid) CoverReach() float32 {
	if g.count == 0 {
		return 0
	}
	return float32(math.Sqrt(float64(g.maxR2))) + slack
}

// CoverCount returns how many entities stand in the cells a Covering query
// at p reads: those that hold some point within r = [Grid.CoverReach] of p
// along both axes. An entity at a point within r of p along both axes is
// among them. It reads the cells' lengths, not their entities: a caller
// that knows that many of the entities near p can tell that a Covering
// query would return only those, without running it.
func (g *Grid) CoverCount(p Vec) int {
	if g.count == 0 {
		return 0
	}
	r := g.CoverReach()
	x0, x1 := g.axis(p.X-r), g.axis(p.X+r)
	y0, y1 := g.axis(p.Y-r), g.axis(p.Y+r)
	n := 0
	for by := y0 / blockSide; by <= y1/blockSide; by++ {
		for bx := x0 / blockSide; bx <= x1/blockSide; bx++ {
			b := g.blocks[by*g.bside+bx]
			if b == nil {
				continue
			}
			for cy := max(y0, by*blockSide); cy <= min(y1, by*blockSide+blockSide-1); cy++ {
				row := b[(cy%blockSide)*blockSide:]
				for occ := g.occupied(bx, by, cy, x0, x1); occ != 0; occ &= occ - 1 {
					n += len(row[bits.TrailingZeros16(occ)].p)
				}
			}
		}
	}
	return n
}
