package lane

import "time"

// rtt is the round-trip estimator of RFC 6298 (SRTT and RTTVAR with gains
// 1/8 and 1/4), fed with samples from which the peer's ack delay is removed.
// The zero value has no sample; init sets the initial guess.
type rtt struct {
	srtt, rttvar time.Duration
	latest       time.Duration
	samples      int
	maxAckDelay  time.Duration
}

func (r *rtt) init(initial, maxAckDelay time.Duration) {
	if initial <= 0 {
		initial = DefaultInitialRTT
	}
	if maxAckDelay <= 0 {
		maxAckDelay = DefaultMaxAckDelay
	}
	r.srtt, r.rttvar, r.maxAckDelay = initial, initial/2, maxAckDelay
}

// sample adds one measurement: raw is the time from the transmission to
// the ack, delay what the peer says it held the packet. The delay is
// removed unless it exceeds the raw time (a peer cannot hold a packet
// longer than the round trip).
func (r *rtt) sample(raw, delay time.Duration) {
	if raw <= 0 {
		return
	}
	s := raw
	if delay > 0 && delay < raw {
		s = raw - delay
	}
	r.latest = s
	if r.samples == 0 {
		r.srtt, r.rttvar = s, s/2
	} else {
		d := r.srtt - s
		if d < 0 {
			d = -d
		}
		r.rttvar = (3*r.rttvar + d) / 4
		r.srtt = (7*r.srtt + s) / 8
	}
	r.samples++
}

// rto is the base retransmission timeout, before backoff.
func (r *rtt) rto() time.Duration {
	return min(max(r.srtt+4*r.rttvar+r.maxAckDelay, MinRTO), MaxRTO)
}

// backoff is the timeout of an event transmitted tries times: the base
// RTO ×1.5 per transmission after the first, clamped to MaxBackoffRTO.
func (r *rtt) backoff(tries int) time.Duration {
	d := r.rto()
	for i := 1; i < tries && d < MaxBackoffRTO; i++ {
		d += d / 2
	}
	return min(d, MaxBackoffRTO)
}

// lossDelay is how long after its transmission an event that an ack shows
// missing is declared lost: 9/8 of the larger of SRTT and the latest
// sample, at least 1 ms (RFC 9002 §6.1.2).
func (r *rtt) lossDelay() time.Duration {
	d := max(r.srtt, r.latest)
	return max(d+d/8, time.Millisecond)
}
