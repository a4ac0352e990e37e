package transport

import "dlmp/internal/wire"

// arenaChunk is the size of an arena's chunks: 54 datagrams of the full
// budget, more of a crossing's (~700 bytes on average).
const arenaChunk = 64 << 10

// arena holds a tick batch's own datagrams (the lanes', the acks', the
// keepalives') back to back in chunks kept with the batch: one bump of an
// offset a datagram, where a pooled buffer each cost a sync.Pool Get
// (stolen from the writer's P, where the writer Put it) and 1,200 bytes
// of lines the datagram mostly did not use. The chunks are reused with
// their batch (the tick takes the one written last: getBatch), so a tick's
// datagrams go on the pages of a recent tick's, most often the last one's,
// warm and faulted in,
// instead of fresh ones when the pool ran dry (decision 0400).
//
// A datagram is the arena's tail while it is being packed: next gives
// room for wire.MaxDatagram bytes after what is used, and use records
// the bytes the caller wrote there, which a packet packed after them
// extends (tickState.emit). The zero value is empty.
type arena struct {
	chunks [][]byte // every chunk, arenaChunk bytes each
	i      int      // the chunk being filled
	n      int      // its bytes used
}

// next returns an empty buffer with room for a datagram at the arena's
// end. Nothing is taken until use.
func (a *arena) next() []byte {
	if a.i < len(a.chunks) && arenaChunk-a.n < wire.MaxDatagram {
		a.i, a.n = a.i+1, 0
	}
	if a.i == len(a.chunks) {
		a.chunks = append(a.chunks, make([]byte, arenaChunk))
	}
	return a.chunks[a.i][a.n:a.n:min(a.n+wire.MaxDatagram, arenaChunk)]
}

// use records that n more bytes of the buffer next gave last are used.
func (a *arena) use(n int) { a.n += n }

// reset makes every chunk free again, once the writer is done with them.
func (a *arena) reset() { a.i, a.n = 0, 0 }
