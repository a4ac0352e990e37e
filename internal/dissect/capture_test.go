package dissect

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"
)

// installHint is what a machine without Wireshark's command-line tools needs.
const installHint = "install Debian's tshark package: apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y tshark"

// tools returns the paths of tshark and dumpcap. Without them the test fails
// in CI (CI=true) and skips elsewhere.
func tools(t *testing.T) (tshark, dumpcap string) {
	t.Helper()
	var missing []string
	tshark, err := exec.LookPath("tshark")
	if err != nil {
		missing = append(missing, "tshark")
	}
	dumpcap, err = exec.LookPath("dumpcap")
	if err != nil {
		missing = append(missing, "dumpcap")
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("%v not found in PATH: the dissector test needs them; %s", missing, installHint)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg + " (skipped because CI is not true)")
	}
	return tshark, dumpcap
}

// datagram is one UDP datagram as a receiving socket got it.
type datagram struct {
	from, to netip.AddrPort
	payload  []byte
}

// flowLog records datagrams in the order they arrived; it is the capture
// when live capture is not possible.
type flowLog struct {
	mu  sync.Mutex
	got []datagram
}

func (l *flowLog) add(from, to netip.AddrPort, payload []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, datagram{from, to, bytes.Clone(payload)})
}

func (l *flowLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.got)
}

// count is how many datagrams logged start with packet id.
func (l *flowLog) count(id byte) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, d := range l.got {
		if len(d.payload) > 0 && d.payload[0] == id {
			n++
		}
	}
	return n
}

func (l *flowLog) snapshot() []datagram {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]datagram(nil), l.got...)
}

// liveCapture is dumpcap writing a pcap stream of one UDP port on the
// loopback interface to its stdout.
type liveCapture struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	mu     sync.Mutex
	stream bytes.Buffer // the pcap bytes so far
	done   chan error   // the copy from stdout ended
	once   sync.Once    // stop
}

// loopback is the name of the loopback interface.
func loopback() string {
	if runtime.GOOS == "linux" {
		return "lo"
	}
	return "lo0"
}

// startCapture starts dumpcap on the loopback interface with a capture
// filter on port. It returns an error when dumpcap cannot start.
func startCapture(dumpcap string, port uint16) (*liveCapture, error) {
	c := &liveCapture{done: make(chan error, 1)}
	// -P: pcap, not pcapng; -q: no packet counts on stderr; -w -: stdout,
	// flushed packet by packet.
	c.cmd = exec.Command(dumpcap, "-q", "-P", "-i", loopback(), "-f", fmt.Sprintf("udp port %d", port), "-w", "-")
	c.cmd.Stderr = &c.stderr
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := out.Read(buf)
			c.mu.Lock()
			c.stream.Write(buf[:n])
			c.mu.Unlock()
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				c.done <- err
				return
			}
		}
	}()
	return c, nil
}

// contains reports whether the stream so far holds b.
func (c *liveCapture) contains(b []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Contains(c.stream.Bytes(), b)
}

// exited reports whether dumpcap's output ended (it failed to capture).
func (c *liveCapture) exited() bool {
	select {
	case err := <-c.done:
		c.done <- err
		return true
	default:
		return false
	}
}

// waitFor sends marker with send until the capture holds it: the capture is
// running and has everything sent before. It returns false when dumpcap ended
// or the deadline passed.
func (c *liveCapture) waitFor(marker []byte, send func(), within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if c.contains(marker) {
			return true
		}
		if c.exited() {
			return false
		}
		send()
		time.Sleep(20 * time.Millisecond)
	}
	return c.contains(marker)
}

// stop ends dumpcap and returns the pcap stream. It may be called more
// than once.
func (c *liveCapture) stop() ([]byte, error) {
	c.once.Do(func() {
		c.cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-c.done:
			c.done <- err
		case <-time.After(10 * time.Second):
			c.cmd.Process.Kill()
		}
		c.cmd.Wait()
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.stream.Bytes()), nil
}

// pcap link types the reader understands.
const (
	linkNull     = 0   // BSD loopback: a 4-byte address family
	linkEthernet = 1   // Linux lo
	linkRaw      = 101 // an IP header first
	linkSLL      = 113 // Linux cooked capture
	linkIPv4     = 228
)

// captured is one UDP datagram of a capture.
type captured struct {
	srcPort, dstPort uint16
	payload          []byte
}

// readPcap returns the UDP datagram of every record of a pcap file, in order.
func readPcap(b []byte) ([]captured, error) {
	if len(b) < 24 {
		return nil, fmt.Errorf("pcap: %d bytes, shorter than its 24-byte header", len(b))
	}
	var bo binary.ByteOrder
	switch binary.LittleEndian.Uint32(b) {
	case 0xa1b2c3d4, 0xa1b23c4d:
		bo = binary.LittleEndian
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo = binary.BigEndian
	default:
		return nil, fmt.Errorf("pcap: magic %x is not a pcap file's", b[:4])
	}
	link := bo.Uint32(b[20:]) & 0xffff
	var out []captured
	for rest := b[24:]; len(rest) > 0; {
		if len(rest) < 16 {
			return nil, fmt.Errorf("pcap: record %d: %d bytes, shorter than its header", len(out), len(rest))
		}
		n := int(bo.Uint32(rest[8:]))
		if len(rest) < 16+n {
			return nil, fmt.Errorf("pcap: record %d: %d bytes, want %d", len(out), len(rest)-16, n)
		}
		d, err := udpDatagram(link, rest[16:16+n])
		if err != nil {
			return nil, fmt.Errorf("pcap: record %d: %w", len(out), err)
		}
		out = append(out, d)
		rest = rest[16+n:]
	}
	return out, nil
}

// udpDatagram strips the link and IP headers of one frame and reads the UDP
// header.
func udpDatagram(link uint32, f []byte) (captured, error) {
	switch link {
	case linkNull:
		f = f[min(4, len(f)):]
	case linkEthernet:
		f = f[min(14, len(f)):]
	case linkSLL:
		f = f[min(16, len(f)):]
	case linkRaw, linkIPv4:
	default:
		return captured{}, fmt.Errorf("link type %d not understood", link)
	}
	if len(f) < 1 {
		return captured{}, errors.New("no IP header")
	}
	switch f[0] >> 4 {
	case 4:
		ihl := int(f[0]&0x0f) * 4
		if len(f) < ihl+8 || f[9] != 17 {
			return captured{}, errors.New("not an IPv4 UDP datagram")
		}
		f = f[ihl:]
	case 6:
		if len(f) < 48 || f[6] != 17 {
			return captured{}, errors.New("not an IPv6 UDP datagram without extension headers")
		}
		f = f[40:]
	default:
		return captured{}, fmt.Errorf("IP version %d", f[0]>>4)
	}
	n := int(binary.BigEndian.Uint16(f[4:]))
	if n < 8 || n > len(f) {
		return captured{}, fmt.Errorf("UDP length %d, frame holds %d", n, len(f))
	}
	return captured{binary.BigEndian.Uint16(f), binary.BigEndian.Uint16(f[2:]), f[8:n]}, nil
}

// writePcap encodes datagrams as a pcap file of IPv4 (link type 228), one
// record per datagram, a millisecond apart: the capture when dumpcap cannot
// capture. Both ends of every datagram must be IPv4.
func writePcap(ds []datagram) ([]byte, error) {
	le := binary.LittleEndian
	b := le.AppendUint32(nil, 0xa1b2c3d4)
	b = le.AppendUint16(b, 2)
	b = le.AppendUint16(b, 4)
	b = le.AppendUint32(b, 0)     // thiszone
	b = le.AppendUint32(b, 0)     // sigfigs
	b = le.AppendUint32(b, 65535) // snaplen
	b = le.AppendUint32(b, linkIPv4)
	start := time.Now()
	for i, d := range ds {
		if !d.from.Addr().Unmap().Is4() || !d.to.Addr().Unmap().Is4() {
			return nil, fmt.Errorf("datagram %d: %v → %v is not IPv4", i, d.from, d.to)
		}
		total := 20 + 8 + len(d.payload)
		ip := make([]byte, 20, total)
		ip[0] = 0x45
		binary.BigEndian.PutUint16(ip[2:], uint16(total))
		ip[8] = 64 // ttl
		ip[9] = 17 // UDP
		src, dst := d.from.Addr().Unmap().As4(), d.to.Addr().Unmap().As4()
		copy(ip[12:], src[:])
		copy(ip[16:], dst[:])
		binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip))
		frame := binary.BigEndian.AppendUint16(ip, d.from.Port())
		frame = binary.BigEndian.AppendUint16(frame, d.to.Port())
		frame = binary.BigEndian.AppendUint16(frame, uint16(8+len(d.payload)))
		frame = binary.BigEndian.AppendUint16(frame, 0) // no UDP checksum
		frame = append(frame, d.payload...)
		ts := start.Add(time.Duration(i) * time.Millisecond)
		b = le.AppendUint32(b, uint32(ts.Unix()))
		b = le.AppendUint32(b, uint32(ts.Nanosecond()/1000))
		b = le.AppendUint32(b, uint32(len(frame)))
		b = le.AppendUint32(b, uint32(len(frame)))
		b = append(b, frame...)
	}
	return b, nil
}

func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(h); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// record runs traffic (which sends everything, and whose receivers add what
// they got to log) under a live capture of port, and returns the pcap file.
// marker sends one datagram on the port that the capture must see before
// and after traffic: it proves the capture runs, then that it has it all.
// When dumpcap cannot capture, the pcap is written from log.
func record(t *testing.T, dumpcap string, port uint16, log *flowLog, marker func(tag uint32) []byte, traffic func()) []byte {
	t.Helper()
	live, err := startCapture(dumpcap, port)
	if err == nil {
		lc := live
		t.Cleanup(func() { lc.stop() }) // when the test fails midway
		first := marker(0x5EED0001)
		if !live.waitFor(first, func() { marker(0x5EED0001) }, 15*time.Second) {
			pcap, _ := live.stop()
			if len(pcap) > 24 {
				t.Fatalf("dumpcap captured but never saw the start marker within 15 s; stderr:\n%s", live.stderr.String())
			}
			err = fmt.Errorf("dumpcap could not capture on %s: %s", loopback(), bytes.TrimSpace(live.stderr.Bytes()))
			live = nil
		}
	}
	if err != nil {
		t.Logf("live capture not possible (%v): writing the capture from the datagrams received", err)
		traffic()
		pcap, err := writePcap(log.snapshot())
		if err != nil {
			t.Fatal(err)
		}
		return pcap
	}
	traffic()
	last := marker(0x5EED0002)
	if !live.waitFor(last, func() { marker(0x5EED0002) }, 15*time.Second) {
		live.stop()
		t.Fatalf("the capture never saw the end marker within 15 s; dumpcap stderr:\n%s", live.stderr.String())
	}
	pcap, err := live.stop()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("live capture on %s: %d bytes of pcap", loopback(), len(pcap))
	return pcap
}
