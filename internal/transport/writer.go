package transport

import (
	"net/netip"

	"dlmp/internal/conn"
	"dlmp/internal/rtthread"
)

// batch is a list of datagrams for the writer, with what holds them: the
// tick's in its arena, the reader's in pooled buffers.
type batch struct {
	msgs   []conn.Message
	bufs   []*buffer
	gather []gatherRef // the messages that are gather lists, for the writer to make
	arena  arena       // a tick batch's own datagrams (the reader's are in bufs)
	seq    uint64      // a tick's batch: its number (Server.written); 0 for the reader's
}

// gatherRef is a message of a batch whose bytes are parts: a session's
// (Session.parts), or a crowd viewer's run of shared moves in the tick's
// list (movesBuf.spans, decision 0388). The writer makes its gather list
// (Server.gatherBufs), on its own goroutine, rather than the tick.
type gatherRef struct {
	msg    int      // the message, in batch.msgs
	head   bool     // the message's Buf comes first (a datagram the parts are packed after)
	extra  int      // the message's datagrams but one
	parts  []uint64 // off | n<<32 | partShared
	own    []byte   // the session's unrel, the parts without partShared are pieces of
	shared []byte   // the tick's shared moves, the parts with it are pieces of
}

// piece returns the bytes of part p: a piece of the session's unrel, or
// of the tick's shared moves when p has partShared.
func (g *gatherRef) piece(p uint64) []byte {
	off, n := uint32(p), uint32(p>>32&partLen)
	src := g.own
	if p&partShared != 0 {
		src = g.shared
	}
	return src[off : off+n : off+n]
}

// datagrams is how many datagrams the batch carries.
func (b *batch) datagrams() uint64 {
	var n uint64
	for i := range b.msgs {
		n += uint64(b.msgs[i].Datagrams())
	}
	for _, g := range b.gather {
		n += uint64(g.extra)
	}
	return n
}

// write sends b's messages on c and returns how many were sent whole. The
// gather messages' parts are copied, a sendmmsg's worth of messages at a
// time, into the writer's buffers (one a message of the call: warm, reused
// call after call), straight from the sessions' buffers and the tick's
// shared moves; with c.Iovec() they go to c as gather lists instead
// (gatherBufs), an iovec each (decision 0355).
func (s *Server) write(c *conn.Conn, b *batch) (int, error) {
	if len(b.gather) == 0 || c.Iovec() {
		s.gatherBufs(b)
		return c.WriteBatch(b.msgs)
	}
	sent, gi := 0, 0
	for start := 0; start < len(b.msgs); start += conn.MaxBatch {
		end := min(start+conn.MaxBatch, len(b.msgs))
		for ; gi < len(b.gather) && b.gather[gi].msg < end; gi++ {
			g := &b.gather[gi]
			m := &b.msgs[g.msg]
			f := s.flat[g.msg-start][:0]
			if g.head {
				f = append(f, m.Buf...)
			}
			for _, p := range g.parts {
				f = append(f, g.piece(p)...)
			}
			s.flat[g.msg-start], m.Buf = f, f
		}
		n, err := c.WriteBatch(b.msgs[start:end])
		sent += n
		if err != nil || n < end-start {
			return sent, err
		}
	}
	return sent, nil
}

// gatherBufs makes the gather lists of b's gather messages (conn.Message.Bufs)
// in the writer's list of pieces (iov). A piece of the shared moves is read
// by the kernel from the tick's one copy of them.
func (s *Server) gatherBufs(b *batch) {
	if len(b.gather) == 0 {
		return
	}
	n := 0
	for _, g := range b.gather {
		n += len(g.parts) + 1
	}
	if cap(s.iov) < n {
		s.iov = make([][]byte, 0, n+n/4)
	}
	iov := s.iov[:0]
	for _, g := range b.gather {
		at := len(iov)
		m := &b.msgs[g.msg]
		if g.head {
			iov = append(iov, m.Buf)
		}
		for _, p := range g.parts {
			iov = append(iov, g.piece(p))
		}
		m.Bufs = iov[at:len(iov):len(iov)]
	}
	s.iov = iov
}

func (s *Server) getBatch() *batch {
	select {
	case b := <-s.freeB:
		return b
	default:
		return &batch{}
	}
}

// put hands a batch to the writer; when the writer is that far behind, the
// datagrams are dropped and counted (the lanes retransmit what matters).
func (s *Server) put(b *batch) {
	s.pending.Add(1)
	select {
	case s.out <- b:
	default:
		s.pending.Add(-1)
		s.stats.drops[DropWriteQueue].Add(b.datagrams())
		s.recycle(b)
	}
}

// sendControl sends one small answer from the reader goroutine.
func (s *Server) sendControl(to netip.AddrPort, d []byte) {
	b := s.getBatch()
	buf := s.pool.Get().(*buffer)
	n := copy(buf[:], d)
	b.bufs = append(b.bufs, buf)
	b.msgs = append(b.msgs, conn.Message{Buf: buf[:n], Addr: to})
	s.put(b)
}

// recycle takes b back once written (or dropped): a tick's batch to the
// tick's own free list (freeT), the reader's to freeB.
func (s *Server) recycle(b *batch) {
	for _, buf := range b.bufs {
		s.pool.Put(buf)
	}
	clear(b.msgs)
	clear(b.gather)
	free := s.freeB
	if b.seq != 0 {
		free = s.freeT
	}
	b.msgs, b.bufs, b.gather, b.seq = b.msgs[:0], b.bufs[:0], b.gather[:0], 0
	b.arena.reset()
	select {
	case free <- b:
	default:
	}
}

// WriterThread is the writer's OS thread id once it runs in the real-time
// class (Config.WriterFIFO), 0 before or otherwise.
func (s *Server) WriterThread() int { return int(s.writerTID.Load()) }

// writeLoop is the writer goroutine.
func (s *Server) writeLoop() {
	defer s.wg.Done()
	tid, unlock := rtthread.LockLogged(s.cfg.Log, "writer", s.cfg.WriterFIFO)
	defer unlock()
	s.writerTID.Store(int64(tid))
	for {
		select {
		case <-s.done:
			return
		case b := <-s.out:
			n, err := s.write(s.conn, b)
			var bytes, datagrams uint64
			for i := range b.msgs[:n] {
				bytes += uint64(b.msgs[i].Len())
				datagrams += uint64(b.msgs[i].Datagrams())
			}
			s.stats.DatagramsOut.Add(datagrams)
			s.stats.MessagesOut.Add(uint64(n))
			s.stats.Writes.Add(1)
			s.stats.BytesOut.Add(bytes)
			if err != nil && !isClosed(err) {
				s.cfg.Log.Warn("transport: write", "err", err, "unsent_messages", len(b.msgs)-n)
			}
			if b.seq != 0 {
				s.written.Store(b.seq) // the sessions may write into what it held
			}
			s.recycle(b)
			s.pending.Add(-1)
		}
	}
}
