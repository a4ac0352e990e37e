package wire

// RunClock (0x23) switches the recipient to a free-running clock (world.md).
//
//	[u8 packet_id = 0x23]
//	[u32 event_id]
//	[u8 hours]       // 0..=23: the phase on establish, the target on resync
//	[u8 minutes]     // 0..=59
//	[u32 minute_ms]  // real milliseconds per game minute, 10..=3_600_000
//
// Total: 11 bytes. Server → Client, reliable event lane, in the same stream
// as SetTime. The first packet, and any with a different minute_ms, is a hard
// establish; later ones are a resync. The mode change is critical, the
// periodic resync (every 45 s) droppable. Real time is RunClock with
// minute_ms = RealMinuteMs. The server validates hours 0..=23, minutes 0..=59
// and minute_ms 10..=3_600_000; the client decoder does the same.
type RunClock struct {
	EventID  uint32 `json:"event_id"`
	Hours    uint8  `json:"hours"`
	Minutes  uint8  `json:"minutes"`
	MinuteMs uint32 `json:"minute_ms"`
}

const (
	IDRunClock  = 0x23
	RunClockLen = 11
)

// Clock rates, in real milliseconds per game minute.
const (
	MinMinuteMs  = 10
	MaxMinuteMs  = 3_600_000
	GameMinuteMs = 1000  // the game's own rate
	RealMinuteMs = 60000 // real time: one real minute per game minute
)

func init() { register(IDRunClock, func() Packet { return new(RunClock) }) }

func (*RunClock) ID() byte       { return IDRunClock }
func (*RunClock) Name() string   { return "RunClock" }
func (*RunClock) Dir() Direction { return ServerToClient }
func (*RunClock) Len() int       { return RunClockLen }

func (p *RunClock) Append(b []byte) []byte {
	b = append(b, IDRunClock)
	b = appendU32(b, p.EventID)
	b = append(b, p.Hours, p.Minutes)
	return appendU32(b, p.MinuteMs)
}

func (p *RunClock) Parse(b []byte) (int, error) {
	if err := head(b, IDRunClock, RunClockLen, "RunClock"); err != nil {
		return 0, err
	}
	c := cursor(b[1:])
	p.EventID = c.u32()
	p.Hours = c.u8()
	p.Minutes = c.u8()
	p.MinuteMs = c.u32()
	return RunClockLen, nil
}

// CheckSend is the server's check before sending: the same ranges.
func (p *RunClock) CheckSend() error { return p.check() }

// CheckRecv is the client decoder's check.
func (p *RunClock) CheckRecv() error { return p.check() }

func (p *RunClock) check() error {
	if err := checkClock("RunClock", p.Hours, p.Minutes); err != nil {
		return err
	}
	return CheckMinuteMs("RunClock", "minute_ms", p.MinuteMs)
}

// CheckMinuteMs checks a clock rate (MinMinuteMs..=MaxMinuteMs) in field of
// packet; ServerHello carries one too when the clock runs.
func CheckMinuteMs(packet, field string, ms uint32) error {
	if ms < MinMinuteMs || ms > MaxMinuteMs {
		return invalid(packet, field, "must be 10..=3600000 ms per game minute, got %d", ms)
	}
	return nil
}
