package wire

import "fmt"

// ChatText is the text of a chat packet: [u8 len][u8 text[len]] on the wire.
// It holds any u8 length so that Parse never fails on a value; the rules
// (1..=144 bytes of UTF-8 without control characters) are the packets'
// checks. Bytes past N are not part of the packet. The zero value is the
// empty text.
type ChatText struct {
	N   uint8     `json:"len"`
	Buf [255]byte `json:"-"`
}

// Bytes returns the text; it aliases t.
func (t *ChatText) Bytes() []byte { return t.Buf[:t.N] }

// Set replaces the text with s, cut to 255 bytes; it reports whether s fit.
func (t *ChatText) Set(s string) bool {
	t.N = uint8(copy(t.Buf[:], s))
	return len(s) <= len(t.Buf)
}

func (t *ChatText) String() string { return string(t.Bytes()) }

// MarshalText and UnmarshalText make the text a JSON string for the packet
// tool.
func (t ChatText) MarshalText() ([]byte, error) { return t.Buf[:t.N], nil }

func (t *ChatText) UnmarshalText(b []byte) error {
	if len(b) > len(t.Buf) {
		return fmt.Errorf("chat text is %d bytes, at most %d fit", len(b), len(t.Buf))
	}
	t.N = uint8(copy(t.Buf[:], b))
	return nil
}

func (t *ChatText) append(b []byte) []byte { return append(append(b, t.N), t.Buf[:t.N]...) }

// parse reads len and the text; the caller checked that they are there.
func (t *ChatText) parse(c *cursor) {
	t.N = c.u8()
	c.bytes(t.Buf[:t.N])
}

// need checks that b holds the n bytes a length field announced.
func need(b []byte, n int, packet, field string) error {
	if len(b) < n {
		return &Error{Packet: packet, Field: field, Rule: fmt.Sprintf("len says %d bytes in all, have %d", n, len(b)), Err: ErrTruncated}
	}
	return nil
}
