package lane

import (
	"encoding/binary"
	"testing"
	"time"

	"dlmp/internal/wire"
)

var t0 = time.Unix(1_000_000, 0)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// message returns a reliable packet of n ≥ 9 bytes with packet id pid and
// seq in bytes 5..9 (the event_id, bytes 1..5, is left 0).
func message(pid byte, n int, seq uint32) []byte {
	b := make([]byte, n)
	b[0] = pid
	binary.LittleEndian.PutUint32(b[5:], seq)
	for i := 9; i < n; i++ {
		b[i] = byte(seq) + byte(i)
	}
	return b
}

// bigID is the packet id of the tests' unfragmented large messages, which
// fill their datagram alone.
const bigID = 0x66

// split cuts a datagram of the S → C lane into its packets: a Fragment by
// its len, anything else by the sizes the tests use (byte 9.. is filler up
// to a length written by message: the tests only pack equal-size messages
// or fragments, so size says how long a non-fragment packet is).
func split(t *testing.T, dgram []byte, size int) [][]byte {
	t.Helper()
	var out [][]byte
	for len(dgram) > 0 {
		n := size
		if dgram[0] == wire.IDFragment {
			var f wire.Fragment
			m, err := f.Parse(dgram)
			if err != nil {
				t.Fatalf("fragment in datagram: %v", err)
			}
			n = m
		} else if dgram[0] == bigID {
			n = len(dgram)
		}
		if n > len(dgram) {
			t.Fatalf("datagram ends inside a %d-byte packet", n)
		}
		out = append(out, dgram[:n])
		dgram = dgram[n:]
	}
	return out
}

func eventID(p []byte) uint32 { return binary.LittleEndian.Uint32(p[1:5]) }

// poll runs s.Poll and returns copies of the datagrams.
func poll(s *Sender, now time.Time) [][]byte {
	var out [][]byte
	s.Poll(now, func(d []byte) { out = append(out, append([]byte(nil), d...)) })
	return out
}

// ids returns the event_ids in the datagrams, in order.
func ids(t *testing.T, dgrams [][]byte, size int) []uint32 {
	t.Helper()
	var out []uint32
	for _, d := range dgrams {
		for _, p := range split(t, d, size) {
			out = append(out, eventID(p))
		}
	}
	return out
}

// ackOf builds a ClientAck of everything ≤ cum plus the listed ids above.
func ackOf(cum uint32, above ...uint32) wire.ClientAck {
	a := wire.ClientAck{Ack: cum}
	for _, id := range above {
		a.Above |= 1 << (id - cum - 2)
	}
	return a
}
