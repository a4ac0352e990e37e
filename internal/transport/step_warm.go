package transport

// FlushWarmAhead is how many sessions the flush loads at once before it
// steps them (decision 0401).
const FlushWarmAhead = 32

// warmSteps loads, for each of sessions, the lines its step reads: the
// session's (Session.warmStep), its reliable lane's (lane.Sender.WarmPoll)
// and its Go-Back-N receiver's. The loads of different sessions do not
// depend on one another, so their misses overlap, where each step waits
// for its own one after another: every session is stepped every tick, and
// a crowd's are out of the cache by the flush. Only loads: it changes
// nothing. Returns their sum, which the tick keeps.
func (t *tickState) warmSteps(sessions []*Session) {
	if t.noWarm {
		return
	}
	var sum uint32
	for _, s := range sessions {
		sum += s.warmStep()
	}
	t.warmSum += sum
}

// warmStep loads a word of each line of the session that its step reads
// (from Token to held, as the session lies on the heap, 8 bytes into a
// line after the allocator's header: TestWarmStepReadsEveryLine) and its
// lanes'.
func (s *Session) warmStep() uint32 {
	sum := uint32(s.Token) + uint32(s.closing) + s.runN + uint32(len(s.unrelEnd)) + uint32(s.echo) +
		uint32(s.held[0].seq) + uint32(s.held[1].seq)
	if s.lastSent.Before(s.lastHeard) {
		sum++
	}
	if s.gbn.AckDue() {
		sum++
	}
	return sum + s.send.WarmPoll()
}
