package wire

import (
	"bytes"
	"errors"
	"testing"
)

func validFragment() Packet {
	return &Fragment{EventID: 9, Last: 1, Payload: []byte{IDSetTime, 9, 0, 0, 0, 12, 30}}
}

func TestFragmentExample(t *testing.T) {
	checkExample(t, "fragment.bin", validFragment())
	checkTruncated(t, validFragment().Append(nil), func() Packet { return new(Fragment) })
}

func TestFragmentRules(t *testing.T) {
	set := func(n int) func(Packet) {
		return func(p Packet) { p.(*Fragment).Payload = bytes.Repeat([]byte{0xAB}, n) }
	}
	cases := []ruleCase{
		{"last 0", func(p Packet) { p.(*Fragment).Last = 0 }, ""},
		{"last 2", func(p Packet) { p.(*Fragment).Last = 2 }, "last"},
		{"last 255", func(p Packet) { p.(*Fragment).Last = 255 }, "last"},
		{"len 0", set(0), "len"},
		{"len 1", set(1), ""},
		{"len 1192", set(MaxFragmentPayload), ""},
		{"len 1193", set(MaxFragmentPayload + 1), "len"},
	}
	checkRules(t, "server", validFragment, send, cases)
	checkRules(t, "client", validFragment, recv, cases)
}

// TestFragmentParse checks that Parse uses len, not the rest of the buffer,
// and that the payload aliases the input.
func TestFragmentParse(t *testing.T) {
	enc := validFragment().Append(nil)
	next := append(bytes.Clone(enc), IDServerAck, 1, 0, 0, 0)
	var f Fragment
	n, err := f.Parse(next)
	if err != nil || n != len(enc) {
		t.Fatalf("Parse: n=%d err=%v, want n=%d", n, err, len(enc))
	}
	if got, want := f.Len(), len(enc); got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}
	if &f.Payload[0] != &next[FragmentHeaderLen] {
		t.Errorf("payload does not alias the input")
	}
	// A len pointing past the end is truncation, naming the payload.
	enc[6], enc[7] = 0xFF, 0x00
	var e *Error
	if _, err := f.Parse(enc); !errors.Is(err, ErrTruncated) || !errors.As(err, &e) || e.Field != "payload" {
		t.Errorf("Parse with len past the end: err = %v, want ErrTruncated naming payload", err)
	}
}

func TestFragmentParseAllocs(t *testing.T) {
	enc := validFragment().Append(nil)
	var f Fragment
	if n := testing.AllocsPerRun(100, func() { _, _ = f.Parse(enc) }); n != 0 {
		t.Errorf("Parse allocates %v times, want 0", n)
	}
}

func FuzzFragment(f *testing.F) {
	f.Add(validFragment().Append(nil))
	f.Add([]byte{IDFragment, 1, 0, 0, 0, 2, 0, 0})
	f.Add([]byte{IDFragment, 1, 0, 0, 0, 0, 0xA9, 0x04, 1})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(Fragment) }) })
}

func BenchmarkFragment(b *testing.B) {
	p := &Fragment{EventID: 9, Last: 0, Payload: bytes.Repeat([]byte{1}, MaxFragmentPayload)}
	benchCodec(b, p, func() Packet { return new(Fragment) })
}
