package transport

import (
	"net/netip"

	"dlmp/internal/conn"
)

// batch is a list of datagrams for the writer, with the pooled buffers that
// hold them.
type batch struct {
	msgs []conn.Message
	bufs []*buffer
	seq  uint64 // a tick's batch: its number (Server.written); 0 for the reader's
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
		var datagrams uint64
		for i := range b.msgs {
			datagrams += uint64(b.msgs[i].Datagrams())
		}
		s.stats.drops[DropWriteQueue].Add(datagrams)
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

func (s *Server) recycle(b *batch) {
	for _, buf := range b.bufs {
		s.pool.Put(buf)
	}
	clear(b.msgs)
	b.msgs, b.bufs, b.seq = b.msgs[:0], b.bufs[:0], 0
	select {
	case s.freeB <- b:
	default:
	}
}

// writeLoop is the writer goroutine.
func (s *Server) writeLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.done:
			return
		case b := <-s.out:
			n, err := s.conn.WriteBatch(b.msgs)
			var bytes, datagrams uint64
			for i := range b.msgs[:n] {
				bytes += uint64(len(b.msgs[i].Buf))
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
