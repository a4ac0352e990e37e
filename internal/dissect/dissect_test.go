package dissect

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"dlmp/internal/wire"
)

// example is one file of docs/examples.
type example struct {
	file string
	p    wire.Packet
	raw  []byte
}

// loadExamples reads every docs/examples/*.bin and checks that every packet
// id of internal/wire has one.
func loadExamples(t testing.TB) []example {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "examples", "*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	have := map[byte]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := wire.Unmarshal(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		have[p.ID()] = true
		out = append(out, example{filepath.Base(f), p, raw})
	}
	for _, id := range wire.IDs() {
		if !have[id] {
			t.Errorf("no example in docs/examples for %s (0x%02X)", wire.New(id).Name(), id)
		}
	}
	return out
}

// endpoint is a UDP socket whose received datagrams go to a flowLog.
type endpoint struct {
	uc   *net.UDPConn
	addr netip.AddrPort
}

func listen(t *testing.T, log *flowLog) *endpoint {
	t.Helper()
	uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	uc.SetReadBuffer(4 << 20)
	e := &endpoint{uc: uc, addr: uc.LocalAddr().(*net.UDPAddr).AddrPort()}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			n, from, err := uc.ReadFromUDPAddrPort(buf)
			if err != nil {
				return
			}
			log.add(from, e.addr, buf[:n])
		}
	}()
	t.Cleanup(func() { uc.Close(); <-done })
	return e
}

// sent is one datagram the test sends.
type sent struct {
	s2c  bool // server → client
	data []byte
	why  string
}

// datagrams builds what the test sends: every example alone, the examples
// of each direction packed back to back, a message in three Fragments, and
// datagrams whose tail cannot be delimited.
func datagrams(t testing.TB, examples []example) []sent {
	t.Helper()
	var out []sent
	var batch [2][]byte
	flush := func(i int) {
		if len(batch[i]) > 0 {
			out = append(out, sent{i == 0, batch[i], "examples back to back"})
			batch[i] = nil
		}
	}
	for _, e := range examples {
		s2c := e.p.Dir() == wire.ServerToClient
		out = append(out, sent{s2c, e.raw, e.file})
		i := 1
		if s2c {
			i = 0
		}
		if len(batch[i])+len(e.raw) > wire.MaxDatagram {
			flush(i)
		}
		batch[i] = append(batch[i], e.raw...)
	}
	flush(0)
	flush(1)

	// A NetvarResync of 3000 payload bytes: 3007 bytes in Fragments of at
	// most 1192, event ids 100, 101, 102.
	payload := make([]byte, 3000)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	msg := []byte{wire.IDNetvarResync, 100, 0, 0, 0}
	msg = binary.LittleEndian.AppendUint16(msg, uint16(len(payload)))
	msg = append(msg, payload...)
	if _, err := wire.Unmarshal(msg); err != nil {
		t.Fatal(err)
	}
	for ev, rest := uint32(100), msg; len(rest) > 0; ev++ {
		n := min(len(rest), wire.MaxFragmentPayload)
		f := &wire.Fragment{EventID: ev, Payload: rest[:n]}
		if n == len(rest) {
			f.Last = 1
		}
		rest = rest[n:]
		b, err := wire.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sent{true, b, fmt.Sprintf("fragment %d of a NetvarResync", ev)})
	}

	// 56 full Fragments: 66752 bytes, above the 65536 of a message.
	over := bytes.Repeat([]byte{0xA5}, wire.MaxFragmentPayload)
	for ev := uint32(200); ev < 256; ev++ {
		f := &wire.Fragment{EventID: ev, Payload: over}
		if ev == 255 {
			f.Last = 1
		}
		b, err := wire.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sent{true, b, fmt.Sprintf("fragment %d of a message too large", ev)})
	}

	// Hides whose text is empty, and variable fields of length 0 (which
	// the decoder rules reject, but which still delimit).
	var hides []byte
	for _, p := range []wire.Packet{
		&wire.PlayerShow{EventID: 1, PlayerID: 8},
		&wire.Label3D{EventID: 2, LabelID: 9},
	} {
		hides = p.Append(hides)
	}
	hides = append(hides, wire.IDChatMessage, 3, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0)
	hides = append(hides, wire.IDNetvarUpdate, 4, 0, 0, 0, 0, 0)
	out = append(out, sent{true, hides, "hides and empty variable fields"})

	// A datagram above the payload budget: a ClientHello and a keepalive.
	for _, e := range examples {
		if e.p.ID() == wire.IDClientHello {
			keepalive := (&wire.ClientKeepalive{Token: 1, Ping: 2}).Append(nil)
			out = append(out, sent{false, append(bytes.Clone(e.raw), keepalive...), "a datagram of 1213 bytes"})
		}
	}

	// Garbage: examples back to back with bytes flipped and cut at random
	// (seeded, so a failure repeats): ids, lengths and values the dissector
	// must take without a Lua error, as the codecs do.
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var d []byte
		for range 1 + rng.IntN(3) {
			d = append(d, examples[rng.IntN(len(examples))].raw...)
		}
		for range 1 + rng.IntN(4) {
			d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
		}
		if rng.IntN(3) == 0 {
			d = d[:1+rng.IntN(len(d))]
		}
		out = append(out, sent{rng.IntN(2) == 0, d[:min(len(d), wire.MaxDatagram+100)], fmt.Sprintf("garbage %d", i)})
	}

	setTime := (&wire.SetTime{EventID: 7, Hours: 12, Minutes: 30}).Append(nil)
	pickup := examples[0].raw
	for _, e := range examples {
		if e.p.ID() == wire.IDPickupSync {
			pickup = e.raw
		}
	}
	out = append(out,
		sent{true, append(bytes.Clone(setTime), 0x14, 1, 2, 3), "unknown id 0x14 after a SetTime"},
		sent{true, append(bytes.Clone(setTime), pickup[:10]...), "a PickupSync cut short after a SetTime"},
		sent{true, []byte{0xFF}, "a lone unknown id"},
	)
	return out
}

func TestDissector(t *testing.T) {
	tshark, dumpcap := tools(t)
	examples := loadExamples(t)
	toSend := datagrams(t, examples)

	log := &flowLog{}
	srv, cli := listen(t, log), listen(t, log)
	var count atomic.Int64
	send := func(s2c bool, b []byte) {
		from, to := cli, srv
		if s2c {
			from, to = srv, cli
		}
		if _, err := from.uc.WriteToUDPAddrPort(b, to.addr); err != nil {
			t.Fatal(err)
		}
		count.Add(1)
	}
	marker := func(tag uint32) []byte {
		b := (&wire.ServerKeepalive{Echo: tag}).Append(nil)
		send(true, b)
		return b
	}
	// caughtUp waits until the receivers have all but behind of the
	// datagrams sent: loopback loses a datagram only when a socket's
	// receive buffer is full, so the sender keeps them from filling.
	caughtUp := func(behind int64) {
		deadline := time.Now().Add(10 * time.Second)
		for int64(log.len()) < count.Load()-behind && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got, want := log.len(), count.Load(); int64(got) < want-behind {
			t.Fatalf("the sockets received %d datagrams of the %d sent", got, want)
		}
	}
	traffic := func() {
		for _, s := range toSend {
			send(s.s2c, s.data)
			caughtUp(32)
		}
		caughtUp(0)
	}
	pcap := record(t, dumpcap, srv.addr.Port(), log, marker, traffic)
	path := writeTemp(t, "dlmp.pcap", pcap)
	caps, err := readPcap(pcap)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range toSend {
		if !capturedOnce(caps, s.data) {
			t.Errorf("the capture misses a datagram sent: %s (%x)", s.why, s.data)
		}
	}

	decodeAs := fmt.Sprintf("udp.port==%d,dlmp", srv.addr.Port())
	frames := dissect(t, tshark, path, "-d", decodeAs)
	if len(frames) != len(caps) {
		t.Fatalf("tshark read %d frames, the capture holds %d", len(frames), len(caps))
	}
	c := newChecker(t)
	for i, d := range caps {
		c.frame(i+1, d, frames[i])
	}
	for _, id := range wire.IDs() {
		if name := wire.New(id).Name(); c.seen[name] == 0 {
			t.Errorf("%s (0x%02X) was never dissected", name, id)
		}
	}
	if !hasMessage(c.messages, 3) || !hasMessage(c.messages, 56) {
		t.Errorf("reassembled messages from frames %q, want one from 3 frames and one from 56", c.messages)
	}
	for _, e := range []string{"dlmp.unknown_id", "dlmp.truncated", "dlmp.message_too_large", "dlmp.oversize"} {
		if c.experts[e] == 0 {
			t.Errorf("expert info %s never raised", e)
		}
	}
	t.Logf("%d frames, %d packet types, %d reassembled messages checked field by field", len(caps), len(c.seen), len(c.messages))

	t.Run("heuristic", func(t *testing.T) {
		// Without Decode As the port is not 7777: the heuristic claims
		// exactly the datagrams of at most 1200 bytes that split into
		// known packets.
		frames := dissect(t, tshark, path)
		if len(frames) != len(caps) {
			t.Fatalf("tshark read %d frames, the capture holds %d", len(frames), len(caps))
		}
		for i, d := range caps {
			n, clean := splitAll(d.payload)
			clean = clean && len(d.payload) <= wire.MaxDatagram
			if frames[i].dlmp != clean {
				t.Errorf("frame %d (%x): claimed as dlmp = %v, want %v", i+1, d.payload, frames[i].dlmp, clean)
				continue
			}
			if clean && len(frames[i].packets) != n {
				t.Errorf("frame %d: %d packets, want %d", i+1, len(frames[i].packets), n)
			}
		}
	})
}

// splitAll reports how many packets the codecs split b into and whether
// they use it all with every ClientHello carrying the magic: what the
// heuristic asks of a datagram, besides its size.
func splitAll(b []byte) (int, bool) {
	var s wire.Splitter
	n := 0
	for len(b) > 0 {
		p, size, err := s.Next(b)
		if err != nil {
			return n, false
		}
		if h, ok := p.(*wire.ClientHello); ok && h.Magic != wire.ProtocolMagic {
			return n, false
		}
		b = b[size:]
		n++
	}
	return n, true
}

func capturedOnce(caps []captured, b []byte) bool {
	for _, c := range caps {
		if bytes.Equal(c.payload, b) {
			return true
		}
	}
	return false
}

// hasMessage reports whether a message was reassembled from n frames.
func hasMessage(frames []string, n int) bool {
	for _, f := range frames {
		if len(strings.Split(f, ",")) == n {
			return true
		}
	}
	return false
}

// names lists the packet names of seen, sorted, for messages.
func names(seen map[string]int) []string {
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
