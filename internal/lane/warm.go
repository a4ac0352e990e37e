package lane

import "math/bits"

// MaxWarm bounds the slots one Warm touches: 16,384 slots, 7 MiB, a
// crossing tick's takes (~16,000) and well inside the last-level cache.
// Past it the list's later free slots stay cold; they are the last the
// next tick takes.
const MaxWarm = 1 << 14

// Warm loads the lines of the free slots the next pushes will take, as
// many as were freed since the last Warm, in the order they will be taken
// (the lowest numbers first), so that those pushes store into lines in
// the cache instead of waiting on memory (decision 0374). Call it where
// the goroutine is idle before its pushes: after applying the acks
// between ticks. It changes nothing a Sender does; it returns how many
// slots it touched.
func (p *Slots) Warm() int {
	if p == nil {
		return 0
	}
	n := min(p.fresh, p.n, MaxWarm)
	p.fresh = 0
	var sum byte
	left := n
	for w := p.low; left > 0; w++ {
		for b := p.free[w]; b != 0 && left > 0; b &= b - 1 {
			i := w*64 + bits.TrailingZeros64(b)
			sl := &p.chunks[i/chunkSlots][i%chunkSlots]
			// One load a line: the bookkeeping's and the room's five.
			// Independent loads, so the misses overlap.
			sum += byte(sl.class) +
				sl.msg[0] + sl.msg[64] + sl.msg[128] + sl.msg[192] + sl.msg[256]
			left--
		}
	}
	p.sink = sum
	return n
}
