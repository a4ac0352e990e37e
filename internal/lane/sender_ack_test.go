package lane

import (
	"testing"

	"dlmp/internal/wire"
)

// TestSenderCumulativeAckOfShown: a cumulative ack whose top event an
// earlier ack's bitfield showed still acknowledges the events below it
// (the cumulative part is freed without reading each slot), and the
// queue's acknowledged prefix reaches it.
func TestSenderCumulativeAckOfShown(t *testing.T) {
	s := NewSender(SenderConfig{})
	for i := range 6 {
		_ = s.Push(message(bigID, wire.MaxDatagram, uint32(i)), Critical)
	}
	poll(s, t0)
	s.OnAck(ackOf(0, 2, 3), t0.Add(ms(30))) // 2 and 3 shown, 1 missing
	if _, acked := s.Progress(); acked != 0 {
		t.Fatalf("got %d acknowledged, want 0: 1 is missing", acked)
	}
	s.OnAck(ackOf(3), t0.Add(ms(40)))
	if queued, acked := s.Progress(); queued != 6 || acked != 3 {
		t.Errorf("got Progress %d, %d, want 6, 3", queued, acked)
	}
	if got := s.Free(); got != DefaultCapacity-3 {
		t.Errorf("got %d free slots, want %d", got, DefaultCapacity-3)
	}
}
