package lane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"dlmp/internal/wire"
)

// event returns a 9-byte reliable packet with event_id id.
func event(id uint32) []byte {
	b := message(0x21, 9, id)
	binary.LittleEndian.PutUint32(b[1:5], id)
	return b
}

// collect returns a deliver func appending the seq (bytes 5..9) of each
// message to *got.
func collect(got *[]uint32) func([]byte) {
	return func(m []byte) { *got = append(*got, binary.LittleEndian.Uint32(m[5:9])) }
}

func TestReceiverOrderDuplicatesAndAck(t *testing.T) {
	r := NewReceiver(77, 8)
	var got []uint32
	steps := []struct {
		id        uint32
		delivered []uint32
		ack       uint32
		above     uint64
	}{
		{1, []uint32{1}, 1, 0},
		{3, []uint32{1}, 1, 0b1},       // 3 = ack+2+0
		{5, []uint32{1}, 1, 0b101},     // 5 = ack+2+2
		{3, []uint32{1}, 1, 0b101},     // duplicate of a held one
		{2, []uint32{1, 2, 3}, 3, 0b1}, // fills the gap; 5 = ack+2+0
		{1, []uint32{1, 2, 3}, 3, 0b1}, // duplicate of a delivered one
		{4, []uint32{1, 2, 3, 4, 5}, 5, 0},
	}
	for i, s := range steps {
		if err := r.Offer(event(s.id), t0, collect(&got)); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, s.delivered) {
			t.Fatalf("step %d (id %d): delivered %v, want %v", i, s.id, got, s.delivered)
		}
		if !r.AckDue() {
			t.Fatalf("step %d: AckDue() false after an arrival", i)
		}
		a := r.Ack(t0)
		if a.Ack != s.ack || a.Above != s.above || a.Token != 77 {
			t.Fatalf("step %d: ack %d above %b token %d, want %d %b 77", i, a.Ack, a.Above, a.Token, s.ack, s.above)
		}
		if r.AckDue() {
			t.Fatalf("step %d: AckDue() true after Ack", i)
		}
	}
	if got := r.Stats().Duplicates; got != 2 {
		t.Errorf("Duplicates = %d, want 2", got)
	}
}

func TestReceiverWindowOverflow(t *testing.T) {
	r := NewReceiver(1, 8)
	var got []uint32
	for _, id := range []uint32{8, 9, 100} { // next is 1: 8 is the last in the window
		if err := r.Offer(event(id), t0, collect(&got)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := r.Stats().Overflow, 2; got != want {
		t.Errorf("Overflow = %d, want %d", got, want)
	}
	if r.Held() != 1 {
		t.Errorf("Held() = %d, want 1", r.Held())
	}
	a := r.Ack(t0)
	if a.Ack != 0 || a.Above != 1<<6 {
		t.Errorf("ack %d above %b, want 0 and bit 6 (id 8)", a.Ack, a.Above)
	}
}

func TestReceiverDelay(t *testing.T) {
	r := NewReceiver(1, 8)
	_ = r.Offer(event(3), t0, func([]byte) {})
	if got := r.Ack(t0.Add(ms(4))).DelayMs; got != 4 {
		t.Errorf("delay_ms = %d, want 4 (since id 3, the top of above, arrived)", got)
	}
	_ = r.Offer(event(1), t0.Add(ms(5)), func([]byte) {})
	if got := r.Ack(t0.Add(ms(9))).DelayMs; got != 9 {
		t.Errorf("delay_ms = %d, want 9 (id 3 is still the top)", got)
	}
	_ = r.Offer(event(2), t0.Add(ms(10)), func([]byte) {}) // drains 3: ack = 3
	if got := r.Ack(t0.Add(ms(12))).DelayMs; got != 12 {
		t.Errorf("delay_ms = %d, want 12 (id 3, now the cumulative ack, arrived at 0)", got)
	}
	_ = r.Offer(event(4), t0.Add(ms(20)), func([]byte) {})
	if got := r.Ack(t0.Add(ms(22))).DelayMs; got != 2 {
		t.Errorf("delay_ms = %d, want 2 (since id 4 arrived)", got)
	}
	if got := r.Ack(t0.Add(ms(100_000))).DelayMs; got != 65535 {
		t.Errorf("delay_ms = %d, want capped at 65535", got)
	}
}

func TestReceiverDropsMalformed(t *testing.T) {
	r := NewReceiver(1, 8)
	bad := []struct {
		name string
		pkt  []byte
	}{
		{"short", []byte{0x21, 1, 0, 0}},
		{"event_id 0", event(0)},
		{"fragment last 2", (&wire.Fragment{EventID: 1, Last: 2, Payload: []byte{1}}).Append(nil)},
		{"fragment len 0", (&wire.Fragment{EventID: 1, Last: 1}).Append(nil)},
		{"fragment truncated", (&wire.Fragment{EventID: 1, Last: 1, Payload: []byte{1, 2}}).Append(nil)[:9]},
	}
	for _, c := range bad {
		if err := r.Offer(c.pkt, t0, func([]byte) { t.Errorf("%s delivered", c.name) }); err != nil {
			t.Errorf("%s: %v, want a counted drop", c.name, err)
		}
	}
	if r.AckDue() {
		t.Errorf("AckDue() after only malformed input")
	}
	st := r.Stats()
	if st.Malformed != 2 || st.BadFragments != 3 {
		t.Errorf("Malformed %d BadFragments %d, want 2 and 3", st.Malformed, st.BadFragments)
	}
}

// fragments cuts msg as the sender does, with ids from first.
func fragments(msg []byte, first uint32) [][]byte {
	var out [][]byte
	for i, id := 0, first; i < len(msg); i, id = i+wire.MaxFragmentPayload, id+1 {
		end := min(i+wire.MaxFragmentPayload, len(msg))
		f := wire.Fragment{EventID: id, Payload: msg[i:end]}
		if end == len(msg) {
			f.Last = 1
		}
		out = append(out, f.Append(nil))
	}
	return out
}

func TestReceiverReassemblyErrors(t *testing.T) {
	big := make([]byte, wire.MaxMessage+1)
	binary.LittleEndian.PutUint32(big[1:5], 1)
	wrongID := make([]byte, 3000)
	binary.LittleEndian.PutUint32(wrongID[1:5], 7)
	okMsg := make([]byte, 3000)
	binary.LittleEndian.PutUint32(okMsg[1:5], 1)
	cases := []struct {
		name string
		pkts [][]byte
	}{
		{"above 65536", fragments(big, 1)},
		{"wrong inner event_id", fragments(wrongID, 1)},
		{"message inside fragments", append(fragments(okMsg, 1)[:1], event(2))},
	}
	for _, c := range cases {
		r := NewReceiver(1, 128)
		var err error
		for _, p := range c.pkts {
			if err = r.Offer(p, t0, func([]byte) { t.Errorf("%s: delivered", c.name) }); err != nil {
				break
			}
		}
		if !errors.Is(err, ErrProtocol) {
			t.Errorf("%s: %v, want ErrProtocol", c.name, err)
		}
		if err2 := r.Offer(event(99), t0, func([]byte) {}); !errors.Is(err2, ErrProtocol) {
			t.Errorf("%s: Offer after the error: %v, want it again", c.name, err2)
		}
	}
}

func TestFragmentationRoundTrip(t *testing.T) {
	for _, n := range []int{wire.MaxDatagram, wire.MaxDatagram + 1, 5000, wire.MaxMessage} {
		s := NewSender(SenderConfig{})
		r := NewReceiver(1, 0)
		small := message(0x21, 9, 1)
		big := message(0x66, n, 2)
		_ = s.Push(small, Critical)
		if err := s.Push(big, Critical); err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		_ = s.Push(message(0x21, 9, 3), Critical)
		var got [][]byte
		deliver := func(m []byte) { got = append(got, bytes.Clone(m)) }
		d := poll(s, t0)
		// Deliver the datagrams in reverse to exercise holding fragments.
		for i := len(d) - 1; i >= 0; i-- {
			for _, p := range split(t, d[i], 9) {
				if err := r.Offer(p, t0, deliver); err != nil {
					t.Fatalf("%d bytes: %v", n, err)
				}
			}
		}
		if len(got) != 3 {
			t.Fatalf("%d bytes: delivered %d messages, want 3", n, len(got))
		}
		k := 1
		if n > wire.MaxDatagram {
			k = (n + wire.MaxFragmentPayload - 1) / wire.MaxFragmentPayload
		}
		if id := eventID(got[1]); id != 2 {
			t.Errorf("%d bytes: message event_id %d, want 2 (its first fragment's)", n, id)
		}
		want := bytes.Clone(big)
		binary.LittleEndian.PutUint32(want[1:5], 2)
		if !bytes.Equal(got[1], want) {
			t.Errorf("%d bytes: reassembled message differs", n)
		}
		if id := eventID(got[2]); id != uint32(2+k) {
			t.Errorf("%d bytes: next message has id %d, want %d (%d fragments)", n, id, 2+k, k)
		}
		if a := r.Ack(t0); a.Ack != uint32(2+k) {
			t.Errorf("%d bytes: ack %d, want %d", n, a.Ack, 2+k)
		}
	}
}
