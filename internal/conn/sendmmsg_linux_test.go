package conn

import (
	"encoding/binary"
	"net"
	"testing"

	"golang.org/x/net/ipv4"
	"golang.org/x/sys/unix"
	"unsafe"
)

// BenchmarkRawSend: x/net's sendmmsg alone, without the Conn, for the batch
// size question (decision 0338): a tick's datagrams for 200 sessions, 3 of
// 1176 bytes and one of 500 each, to 20 sockets nobody reads, in sendmmsg
// calls of 64 (the writer's) or 1024 messages (the kernel's UIO_MAXIOV), a
// datagram a message or a session's four as one GSO message; gso+single is
// one sendmsg a GSO message.
func BenchmarkRawSend(b *testing.B) {
	const sessions, per = 200, 4
	uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	defer uc.Close()
	uc.SetWriteBuffer(4 << 20)
	pc := ipv4.NewPacketConn(uc)
	var dsts []*net.UDPAddr
	for range 20 {
		r, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		r.SetReadBuffer(64 << 10)
		dsts = append(dsts, r.LocalAddr().(*net.UDPAddr))
	}
	payload := make([]byte, 3*1176+500)
	var plain []ipv4.Message
	var gso, gather []ipv4.Message
	// gather: a session's four datagrams as one GSO message of 42-byte
	// pieces (PlayerMoves) scattered over one shared 42 KB buffer of a
	// tick's moves (decision 0355).
	shared := make([]byte, 1000*42)
	oob := make([]byte, unix.CmsgSpace(2))
	h := (*unix.Cmsghdr)(unsafePointer(&oob[0]))
	h.Level, h.Type = unix.SOL_UDP, unix.UDP_SEGMENT
	h.SetLen(unix.CmsgLen(2))
	binary.NativeEndian.PutUint16(oob[unix.CmsgLen(0):], 1176)
	for s := range sessions {
		d := dsts[s%len(dsts)]
		for i := range per {
			end := min((i+1)*1176, len(payload))
			plain = append(plain, ipv4.Message{Buffers: [][]byte{payload[i*1176 : end]}, Addr: d})
		}
		gso = append(gso, ipv4.Message{Buffers: [][]byte{payload}, OOB: oob, Addr: d})
		var bufs [][]byte
		for off := 0; off < len(payload); off += 42 {
			at := (s*97 + off/42*389) % 1000 * 42
			bufs = append(bufs, shared[at:at+min(42, len(payload)-off)])
		}
		gather = append(gather, ipv4.Message{Buffers: bufs, OOB: oob, Addr: d})
	}
	send := func(b *testing.B, ms []ipv4.Message, batch int) {
		for len(ms) > 0 {
			k := min(batch, len(ms))
			n, err := pc.WriteBatch(ms[:k], 0)
			if err != nil {
				b.Fatal(err)
			}
			ms = ms[n:]
		}
	}
	for _, c := range []struct {
		name  string
		ms    []ipv4.Message
		batch int
	}{
		{"mmsg64", plain, 64}, {"mmsg1024", plain, 1024}, {"gso+mmsg64", gso, 64}, {"gso+mmsg256", gso, 256}, {"gso+mmsg1024", gso, 1024}, {"gso+single", gso, 1},
		{"gso+gather+mmsg64", gather, 64},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := processCPU(b)
			for b.Loop() {
				send(b, c.ms, c.batch)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sessions*per), "ns/datagram")
			b.ReportMetric(float64(processCPU(b)-cpu0)/float64(b.N*sessions*per), "cpu-ns/datagram")
		})
	}
}

func unsafePointer(p *byte) unsafe.Pointer { return unsafe.Pointer(p) }
