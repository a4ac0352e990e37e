package transport

import (
	"encoding/binary"
	"net/netip"
	"time"

	"dlmp/internal/conn"
	"dlmp/internal/wire"
)

// readBuf is larger than the payload budget so that an oversized datagram
// is seen as such (and dropped) rather than silently cut.
const readBuf = 1500

// readLoop is the reader goroutine.
func (s *Server) readLoop() {
	lockFIFO("DLMP_READER_FIFO")
	defer s.wg.Done()
	msgs := make([]conn.Message, conn.MaxBatch)
	for i := range msgs {
		msgs[i].Buf = make([]byte, readBuf)
	}
	cm := newCookieMaker(s.secret[:])
	var hello wire.ClientHello
	var signalled time.Time // the last Arrived signal
	for {
		n, err := s.conn.ReadBatch(msgs)
		if err != nil {
			if isClosed(err) {
				return
			}
			s.cfg.Log.Warn("transport: read", "err", err)
			continue
		}
		now := time.Now()
		s.stats.Reads.Add(1)
		for i := range msgs[:n] {
			m := &msgs[i]
			s.receive(m.Buf[:m.N], m.Addr, now, cm, &hello)
			// Counted once handled (queued for the tick, answered or
			// dropped): whoever waits for the count to reach what it sent
			// then finds the datagrams in the tick's queue.
			s.stats.BytesIn.Add(uint64(m.N))
			s.stats.DatagramsIn.Add(1)
		}
		if now.Sub(signalled) >= s.cfg.ArrivedEvery {
			select {
			case s.arrived <- struct{}{}:
				signalled = now
			default: // already signalled
			}
		}
		if n < len(msgs)/2 && s.cfg.ReadPace > 0 {
			// Let the next datagrams gather (a full batch reads on at once),
			// but read them before the next tick.
			time.Sleep(readWait(time.Now(), s.nextTick.Load(), s.cfg.ReadPace))
		}
	}
}

// receive handles one datagram on the reader goroutine.
func (s *Server) receive(d []byte, from netip.AddrPort, now time.Time, cm *cookieMaker, hello *wire.ClientHello) {
	switch {
	case len(d) == 0:
		s.stats.Drop(DropEmpty)
		return
	case len(d) > wire.MaxDatagram:
		s.stats.Drop(DropOversize)
		return
	case d[0] == wire.IDClientHello:
		s.receiveHello(d, from, now, cm, hello)
		return
	case len(d) < 9:
		s.stats.Drop(DropShort)
		return
	}
	sess := s.lookup(binary.LittleEndian.Uint64(d[1:9]))
	if sess == nil {
		s.stats.Drop(DropBadToken)
		return
	}
	if sess.Addr != from {
		s.stats.Drop(DropWrongAddr)
		return
	}
	if !sess.rate.allow(now, s.cfg.InboundRate) {
		s.stats.Drop(DropRate)
		return
	}
	s.enqueue(inbound{sess: sess, addr: from}, d)
}

// receiveHello answers a ClientHello without keeping state, unless its
// cookie proves the address: then the tick creates (or finds) the session.
// Every answer before validation is smaller than the 1200-byte hello.
func (s *Server) receiveHello(d []byte, from netip.AddrPort, now time.Time, cm *cookieMaker, p *wire.ClientHello) {
	if n, err := p.Parse(d); err != nil || n != len(d) || p.CheckRecv() != nil {
		s.stats.Drop(DropBadHello)
		return
	}
	if p.Version != Version {
		s.stats.HelloRefused.Add(1)
		s.sendControl(from, (&wire.Disconnect{Token: p.ClientNonce, Reason: wire.ReasonVersionMismatch}).Append(nil))
		return
	}
	if !cm.valid(now, from, p.ClientNonce, &p.Cookie) {
		s.stats.HelloRetries.Add(1)
		s.sendControl(from, (&wire.HelloRetry{ClientNonce: p.ClientNonce, Cookie: cm.make(now, from, p.ClientNonce)}).Append(nil))
		return
	}
	s.enqueue(inbound{addr: from, nonce: p.ClientNonce}, nil)
}

// enqueue copies d into a pooled buffer and queues it for the tick; a full
// queue drops it.
func (s *Server) enqueue(in inbound, d []byte) {
	in.buf = s.pool.Get().(*buffer)
	in.n = copy(in.buf[:], d)
	select {
	case s.inbound <- in:
	default:
		s.pool.Put(in.buf)
		s.stats.Drop(DropQueueFull)
	}
}

// rate is a token bucket of datagrams per second, burst one second's worth.
// Owned by the reader goroutine.
type rate struct {
	tokens float64
	at     time.Time
}

func (r *rate) allow(now time.Time, perSecond int) bool {
	if r.at.IsZero() {
		r.tokens, r.at = float64(perSecond), now
	}
	r.tokens = min(float64(perSecond), r.tokens+now.Sub(r.at).Seconds()*float64(perSecond))
	r.at = now
	if r.tokens < 1 {
		return false
	}
	r.tokens--
	return true
}

// readWait is the reader's wait after a thin read at now: its pace, cut
// short to end ReadLead before the next tick when that comes first
// (nextTick in Unix ns, 0: unknown), so that the tick is not the one to
// miss a pace's worth of datagrams waiting in the socket (decision 0339).
func readWait(now time.Time, nextTick int64, pace time.Duration) time.Duration {
	if nextTick == 0 {
		return pace
	}
	until := time.Duration(nextTick-now.UnixNano()) - ReadLead
	if until >= 0 && until < pace {
		return until
	}
	return pace
}
