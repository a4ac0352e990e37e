package transport

// The tick's shared moves (decision 0355): the world encodes each mover's
// PlayerMove once a tick into one buffer, and every viewer's datagrams are
// pieces of it. The transport copies that buffer once a tick into one it
// owns (movesBuf, ~42 KB for a crowd of 1000) and the sessions' datagrams
// point into the copy; the writer goroutine copies each datagram's pieces
// from there into its own buffers as it sends them (Server.write), or
// hands them to the kernel as gather lists (DLMP_GATHER=iovec). A copy
// stays unchanged until the writer has written the batch of its tick:
// copies go back to a small queue, tagged with that batch, and are taken
// again only once Server.written has reached it.

// MaxMovesBufs bounds the copies of shared moves kept for reuse: one a
// batch in the writer's queue (16) and the tick's own. Past it a copy is
// left to the garbage collector.
const MaxMovesBufs = 18

// movesBuf is a tick's copy of the world's shared moves.
type movesBuf struct {
	buf []byte
	// The sessions' runs of this tick's moves, back to back, each packet a
	// part (off | n<<32 | partShared, off in buf): SendUnreliableSpans
	// appends a session's run, its step cuts it into datagrams, and the
	// batch's gather messages are pieces of it (decision 0388).
	spans []uint64
	seq   uint64 // the tick batch that may hold pieces of it (0: none)
}

// shareMoves returns where buf's bytes are in this tick's copy of the
// shared moves, copying them there on the first call of the tick with buf
// (the same first byte and length). ok is false during a Flush (a session
// stepped already would send them at the next tick, from a copy that is
// not kept for it) and for an empty buf: the caller copies the packets.
func (t *tickState) shareMoves(buf []byte) (base uint64, ok bool) {
	if t.inFlush || len(buf) == 0 {
		return 0, false
	}
	src := &buf[0]
	if t.moves != nil && src == t.movesSrc && len(buf) == t.movesLen {
		return t.movesAt, true
	}
	if t.moves == nil {
		t.moves = t.takeMoves(len(buf))
	}
	if uint64(len(t.moves.buf)+len(buf)) > 1<<31 {
		return 0, false // offsets are 32 bits: copied per session instead
	}
	t.movesAt = uint64(len(t.moves.buf))
	t.moves.buf = append(t.moves.buf, buf...)
	t.movesSrc, t.movesLen = src, len(buf)
	return t.movesAt, true
}

// takeMoves returns an empty copy for this tick's shared moves: the oldest
// kept one whose batch is written, else a new one.
func (t *tickState) takeMoves(n int) *movesBuf {
	if len(t.movesFree) > 0 && t.movesFree[0].seq <= t.srv.written.Load() {
		m := t.movesFree[0]
		t.movesFree = append(t.movesFree[:0], t.movesFree[1:]...)
		m.buf, m.spans, m.seq = m.buf[:0], m.spans[:0], 0
		t.movesBehind = false
		return m
	}
	t.movesMade++
	t.movesBehind = len(t.movesFree) > 0 // the oldest kept copy's batch not written
	return &movesBuf{buf: make([]byte, 0, max(n, 64<<10)), spans: make([]uint64, 0, 8<<10)}
}

// endMoves closes this tick's shared moves after its batch (seq, 0 for
// none) was handed to the writer: the copy is kept until that batch is
// written, and the next tick copies the world's buffer again. The
// sessions' shared parts are of this tick only: a session that did not
// send them at its step (closing) never does (Session.sharedGen).
func (t *tickState) endMoves(seq uint64) {
	t.movesSrc, t.movesLen, t.movesAt = nil, 0, 0
	if t.moves == nil {
		return
	}
	t.moves.seq = seq
	if len(t.movesFree) < MaxMovesBufs {
		t.movesFree = append(t.movesFree, t.moves)
	}
	t.moves = nil
	t.movesGen++
}

// sharedMoves is this tick's copy of the shared moves so far.
func (t *tickState) sharedMoves() []byte {
	if t.moves == nil {
		return nil
	}
	return t.moves.buf
}
