package lane

// MaxWarm bounds the slots one Warm touches: 16,384 slots, 7 MiB, a
// crossing tick's takes (~16,000) and well inside the last-level cache.
// Past it the list's deepest fresh slots stay cold; they are the last the
// next tick takes.
const MaxWarm = 1 << 14

// Warm loads the lines of the free slots the next pushes will take, the
// ones freed since the last Warm (the list is a stack: the slots freed
// last are taken first), so that those pushes store into lines in the
// cache instead of waiting on memory (decision 0374). Call it where the
// goroutine is idle before its pushes: after applying the acks between
// ticks. It changes nothing a Sender does; it returns how many slots it
// touched.
func (p *Slots) Warm() int {
	if p == nil {
		return 0
	}
	n := min(p.fresh, len(p.free), MaxWarm)
	p.fresh = 0
	var sum byte
	for _, sl := range p.free[len(p.free)-n:] {
		// One load a line: the bookkeeping's two and the room's five.
		// Independent loads, so the misses overlap.
		sum += byte(sl.class) + byte(sl.seq) +
			sl.msg[0] + sl.msg[64] + sl.msg[128] + sl.msg[192] + sl.msg[256]
	}
	p.sink = sum
	return n
}
