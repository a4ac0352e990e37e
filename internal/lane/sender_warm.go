package lane

// WarmPoll loads the lines of the Sender that its next Poll reads, and
// the ones that Poll reaches through them (the earliest and the latest
// timer; when something is queued, the first queued slot and the next
// id's places in flight), and returns a sum of what it loaded. The loads do not
// depend on one another beyond those two steps. A caller that polls many
// Senders in turn (the transport's flush: every session, every tick) calls
// it for the next few before polling them. Their misses then overlap
// instead of coming one after another in each Poll: in a crowd every
// Sender's lines are out of the cache by the flush. It changes nothing.
// It reads one word in each of the Sender's cache lines
// (TestWarmPollReadsEveryLine).
func (s *Sender) WarmPoll() uint32 {
	sum := uint32(s.cfg.Window) + uint32(s.made) + uint32(s.pendHead) + s.base + uint32(s.dgSeq) +
		uint32(len(s.own)) + uint32(len(s.timers)) + uint32(s.level) + uint32(s.dupAcks) +
		uint32(s.stats.Datagrams) + uint32(s.pushed)
	if n := len(s.timers); n > 0 {
		sum += uint32(s.timers[0].at) + uint32(s.timers[n-1].n)
	}
	if s.pendHead < len(s.pending) {
		// What the Poll sends: the first queued slot, and where it goes in
		// flight (the stores of the next ids, and the timer pushed after
		// the last one, wait for their lines too when the store buffer
		// fills).
		sum += uint32(s.pending[s.pendHead].n) + s.flightNo[s.next&s.mask]
		if s.flight[s.next&s.mask] != nil {
			sum++
		}
	}
	return sum
}
