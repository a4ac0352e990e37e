package dissect

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"dlmp/internal/packetjson"
	"dlmp/internal/wire"
)

// bytesFields are the fields tshark shows as bytes (colon hex).
var bytesFields = map[string]bool{"cookie": true, "padding": true, "payload": true}

// extraFields are the wire fields that packetjson leaves out: a length,
// computed from its content, and ClientHello's zero padding.
var extraFields = map[string]bool{"len": true, "padding": true}

// checker compares tshark's dissection of each frame with what the codecs
// of internal/wire decode from the same bytes.
type checker struct {
	t        *testing.T
	split    wire.Splitter
	flows    map[[2]uint16]*reassembly
	seen     map[string]int // packets dissected, by name, reassembled ones included
	experts  map[string]int // dlmp expert infos met
	messages []string       // the frames of every reassembled message
}

// reassembly mirrors docs/protocol.md's reassembly: consecutive event ids up
// to the fragment with last = 1.
type reassembly struct {
	data   []byte
	next   uint32
	frames []string
}

func newChecker(t *testing.T) *checker {
	return &checker{t: t, flows: map[[2]uint16]*reassembly{}, seen: map[string]int{}, experts: map[string]int{}}
}

// frame checks frame number n (1-based) holding datagram d.
func (c *checker) frame(n int, d captured, f frameDoc) {
	t := c.t
	t.Helper()
	where := fmt.Sprintf("frame %d (%x)", n, d.payload[:min(len(d.payload), 24)])
	if !f.dlmp {
		t.Errorf("%s: not dissected as dlmp", where)
		return
	}
	var want []string        // the info column's parts
	var wantExperts []string // the expert infos of the frame
	if len(d.payload) > wire.MaxDatagram {
		wantExperts = append(wantExperts, "dlmp.oversize")
	}
	i := 0
	for off := 0; off < len(d.payload); i++ {
		p, size, err := c.split.Next(d.payload[off:])
		if err != nil {
			switch {
			case errors.Is(err, wire.ErrUnknown):
				wantExperts = append(wantExperts, "dlmp.unknown_id")
				want = append(want, fmt.Sprintf("unknown id 0x%02X", d.payload[off]))
			default:
				wantExperts = append(wantExperts, "dlmp.truncated")
				want = append(want, fmt.Sprintf("truncated 0x%02X", d.payload[off]))
			}
			break
		}
		raw := d.payload[off : off+size]
		off += size
		if i >= len(f.packets) {
			t.Errorf("%s: tshark shows %d packets, the codecs split more (%s at offset %d)", where, len(f.packets), p.Name(), off-size)
			return
		}
		pw := fmt.Sprintf("%s packet %d", where, i)
		summary := c.packet(pw, p, raw, f.packets[i])
		if frag, ok := p.(*wire.Fragment); ok {
			more, expert := c.fragment(pw, n, d, frag, f.packets[i])
			summary += more
			if expert != "" {
				wantExperts = append(wantExperts, expert)
			}
		}
		want = append(want, summary)
	}
	if i != len(f.packets) {
		t.Errorf("%s: tshark shows %d packets, the codecs split %d", where, len(f.packets), i)
	}
	if !equalStrings(f.experts, wantExperts) {
		t.Errorf("%s: expert infos %q, want %q", where, f.experts, wantExperts)
	}
	for _, e := range f.experts {
		c.experts[e]++
	}
	if got, w := f.info, strings.Join(want, ", "); got != w {
		t.Errorf("%s: info column\n%q, want\n%q", where, got, w)
	}
}

// fragment follows the reassembly of frag and checks the message tshark
// shows under it; it returns the info column's addition and the expert info
// the message raises.
func (c *checker) fragment(where string, n int, d captured, frag *wire.Fragment, got dissected) (string, string) {
	t := c.t
	t.Helper()
	key := [2]uint16{d.srcPort, d.dstPort}
	st := c.flows[key]
	if st == nil || st.next != frag.EventID {
		st = &reassembly{}
	}
	st.data = append(st.data, frag.Payload...)
	if len(st.frames) == 0 || st.frames[len(st.frames)-1] != strconv.Itoa(n) {
		st.frames = append(st.frames, strconv.Itoa(n))
	}
	st.next = frag.EventID + 1
	c.flows[key] = st
	if frag.Last != 0 {
		delete(c.flows, key)
	}
	if frag.Last != 1 {
		if got.message != nil {
			t.Errorf("%s: a reassembled message under a fragment with last = %d", where, frag.Last)
		}
		return "", ""
	}
	m := got.message
	if len(st.data) > wire.MaxMessage {
		if m != nil {
			t.Errorf("%s: a reassembled message of %d bytes is shown, want only the expert info", where, len(st.data))
		}
		c.messages = append(c.messages, strings.Join(st.frames, ","))
		return " → message too large", "dlmp.message_too_large"
	}
	if len(st.data) == 0 {
		if m != nil {
			t.Errorf("%s: an empty reassembled message is shown, want only the expert info", where)
		}
		return " → message not delimited", "dlmp.truncated"
	}
	if m == nil {
		t.Errorf("%s: no reassembled message under the last fragment", where)
		return "", ""
	}
	if b := colonHex(m.bytes); b != hex.EncodeToString(st.data) {
		t.Errorf("%s: reassembled message %s, want %x", where, b, st.data)
	}
	if w := strings.Join(st.frames, ","); m.frames != w {
		t.Errorf("%s: message frames %q, want %q", where, m.frames, w)
	}
	c.messages = append(c.messages, m.frames)
	// The message is one packet; the dissector shows the first packet of
	// it, or the expert info of why it cannot be delimited.
	p, size, err := c.split.Next(st.data)
	if err != nil {
		if len(m.inner) != 0 {
			t.Errorf("%s: %d packets in a message the codecs cannot delimit (%v)", where, len(m.inner), err)
		}
		if errors.Is(err, wire.ErrUnknown) {
			return " → message not delimited", "dlmp.unknown_id"
		}
		return " → message not delimited", "dlmp.truncated"
	}
	if len(m.inner) != 1 {
		t.Errorf("%s: %d packets in the reassembled message, want 1", where, len(m.inner))
		return "", ""
	}
	return " → " + c.packet(where+" message", p, st.data[:size], m.inner[0]), ""
}

// packet checks one packet and returns its summary for the info column.
func (c *checker) packet(where string, p wire.Packet, raw []byte, got dissected) string {
	t := c.t
	t.Helper()
	c.seen[p.Name()]++
	js, err := packetjson.Marshal(p)
	if err != nil {
		t.Fatalf("%s: packetjson.Marshal: %v", where, err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var want map[string]any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	lane := wire.LaneOf(p.ID()).String()
	prefix := "dlmp." + snake(p.Name()) + "."
	head := map[string]string{
		"dlmp.packet":    p.Name(),
		"dlmp.packet_id": fmt.Sprintf("0x%02x", p.ID()),
		"dlmp.lane":      lane,
		"dlmp.length":    strconv.Itoa(len(raw)),
	}
	for k, w := range head {
		if g := got.fields[k]; g != w {
			t.Errorf("%s: %s = %q, want %q", where, k, g, w)
		}
	}
	for k, w := range want {
		if k == "packet" || k == "packet_id" {
			continue
		}
		g, ok := got.fields[prefix+k]
		if !ok {
			t.Errorf("%s: no field %s (want %v)", where, prefix+k, w)
			continue
		}
		if !sameValue(k, g, w) {
			t.Errorf("%s: %s = %q, want %v", where, prefix+k, g, w)
		}
	}
	for k, g := range got.fields {
		if _, ok := head[k]; ok {
			continue
		}
		name, ok := strings.CutPrefix(k, prefix)
		if !ok {
			t.Errorf("%s: field %s = %q outside %s*", where, k, g, prefix)
			continue
		}
		if _, ok := want[name]; ok {
			continue
		}
		if !extraFields[name] {
			t.Errorf("%s: field %s = %q is not a field of the codec", where, k, g)
			continue
		}
		if w := extraValue(name, p); g != w {
			t.Errorf("%s: %s = %q, want %q", where, k, g, w)
		}
	}
	summary := p.Name() + " [" + lane
	for _, k := range []string{"event_id", "seq"} {
		if v, ok := want[k]; ok {
			summary += fmt.Sprintf(" %s=%v", k, v)
		}
	}
	return summary + "]"
}

// extraValue is what tshark must show for a wire field that packetjson
// leaves out, read from the decoded packet.
func extraValue(name string, p wire.Packet) string {
	switch name {
	case "padding":
		if h, ok := p.(*wire.ClientHello); ok {
			b := hex.EncodeToString(h.Padding[:])
			var out strings.Builder
			for i := 0; i < len(b); i += 2 {
				if i > 0 {
					out.WriteByte(':')
				}
				out.WriteString(b[i : i+2])
			}
			return out.String()
		}
	case "len":
		switch p := p.(type) {
		case *wire.ClientChat:
			return strconv.Itoa(len(p.Text.Bytes()))
		case *wire.ChatMessage:
			return strconv.Itoa(len(p.Text.Bytes()))
		}
		if v := reflect.ValueOf(p).Elem().FieldByName("Payload"); v.IsValid() {
			return strconv.Itoa(v.Len())
		}
	}
	return "(no rule for " + name + " of " + p.Name() + ")"
}

// sameValue compares tshark's string for field k with packetjson's value.
func sameValue(k, got string, want any) bool {
	switch w := want.(type) {
	case json.Number:
		return sameNumber(got, w.String())
	case string:
		if bytesFields[k] {
			if k == "payload" {
				return colonHex(got) == w
			}
			return strings.TrimRight(colonHex(got), "0") == strings.TrimRight(hex.EncodeToString([]byte(w)), "0")
		}
		switch w {
		case "NaN", "Inf", "-Inf":
			return sameNumber(got, w)
		}
		if strings.IndexFunc(w, isControl) >= 0 {
			// Wireshark escapes control characters in what it shows.
			return true
		}
		return got == w
	case map[string]any:
		h, _ := w["hex"].(string)
		if !bytesFields[k] {
			// Text that is not text (garbage after the NUL, bytes that
			// are not UTF-8): Wireshark shows what it can of it, up to the
			// NUL, with replacement characters; only its presence is
			// checked.
			return true
		}
		return trimZeroBytes(colonHex(got)) == trimZeroBytes(h)
	}
	return false
}

// sameNumber compares two numbers: integers exactly (tshark's hex
// included), anything else as float32 to the 6 significant digits that
// Wireshark 4.0 prints for a float (FLT_DIG), NaN and infinities included.
func sameNumber(got, want string) bool {
	if g, err := strconv.ParseUint(got, 0, 64); err == nil {
		if w, err := strconv.ParseUint(want, 10, 64); err == nil {
			return g == w
		}
	}
	if g, err := strconv.ParseInt(got, 0, 64); err == nil {
		if w, err := strconv.ParseInt(want, 10, 64); err == nil {
			return g == w
		}
	}
	g, err1 := strconv.ParseFloat(got, 32)
	w, err2 := strconv.ParseFloat(want, 32)
	if err1 != nil || err2 != nil {
		return false
	}
	if g != g || w != w { // NaN
		return g != g && w != w
	}
	if float32(g) == float32(w) {
		return true
	}
	return math.Abs(g-w) <= 1e-5*math.Abs(w)
}

// isControl reports the characters packetjson may print in a string that
// Wireshark escapes: controls other than tab, newline and carriage return.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}

func colonHex(s string) string { return strings.ReplaceAll(s, ":", "") }

// trimZeroBytes drops trailing "00" pairs of a hex string.
func trimZeroBytes(h string) string {
	for strings.HasSuffix(h, "00") && len(h)%2 == 0 {
		h = h[:len(h)-2]
	}
	return h
}

// snake turns a packet name into its filter name: "Label3D" → "label_3d".
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if i > 0 {
			prev := rs[i-1]
			if unicode.IsUpper(r) && unicode.IsLower(prev) || unicode.IsDigit(r) && unicode.IsLetter(prev) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func equalStrings(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}
