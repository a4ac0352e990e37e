package lane

import (
	"bytes"
	"testing"

	"dlmp/internal/wire"
)

// TestSenderPollTo: PollTo packs each datagram in the buffer its caller
// gave for it (no copy) and emits the same datagrams as Poll, with a
// buffer asked for each datagram and no more; retransmissions included.
func TestSenderPollTo(t *testing.T) {
	a, b := NewSender(SenderConfig{}), NewSender(SenderConfig{})
	var bufs [][]byte
	give := func() []byte {
		buf := make([]byte, 7, wire.MaxDatagram) // not empty: PollTo starts it at 0
		bufs = append(bufs, buf)
		return buf
	}
	var got [][]byte
	keep := func(d []byte) {
		if len(bufs) == 0 || &d[:1][0] != &bufs[len(bufs)-1][:1][0] {
			t.Fatalf("datagram %d is not packed in the last buffer given", len(got))
		}
		got = append(got, d) // PollTo's caller may keep it
	}
	now := t0
	for tick := range 20 {
		for i := range 5 + tick%7 {
			msg := message(0x21, 60+40*i, uint32(tick*100+i))
			_ = a.Push(msg, Critical)
			_ = b.Push(msg, Critical)
		}
		if tick%3 == 2 { // a hole: 1 lost, fast retransmissions
			ack := ackOf(uint32(tick*4), uint32(tick*4+2), uint32(tick*4+3), uint32(tick*4+4))
			a.OnAck(ack, now)
			b.OnAck(ack, now)
		}
		want := poll(a, now)
		got, bufs = got[:0], bufs[:0]
		b.PollTo(now, give, keep)
		if len(got) != len(want) || len(bufs) != len(want) {
			t.Fatalf("tick %d: got %d datagrams in %d buffers, want %d", tick, len(got), len(bufs), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("tick %d: datagram %d differs from Poll's", tick, i)
			}
		}
		now = now.Add(ms(50))
	}
	if st := b.Stats(); st.Retransmits == 0 || st.Datagrams <= 20 {
		t.Errorf("stats %+v: want retransmissions and several datagrams a tick", st)
	}
}
