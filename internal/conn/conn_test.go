package conn

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"
)

func listen(t testing.TB) *Conn {
	t.Helper()
	c, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func newMsgs(n, size int) []Message {
	ms := make([]Message, n)
	for i := range ms {
		ms[i].Buf = make([]byte, size)
	}
	return ms
}

// readAll reads until want datagrams arrived or the deadline passed.
func readAll(t *testing.T, c *Conn, want int) []Message {
	t.Helper()
	var got []Message
	ms := newMsgs(MaxBatch, 1500)
	deadline := time.Now().Add(5 * time.Second)
	c.uc.SetReadDeadline(deadline)
	for len(got) < want {
		n, err := c.ReadBatch(ms)
		if err != nil {
			t.Fatalf("ReadBatch after %d of %d: %v", len(got), want, err)
		}
		for _, m := range ms[:n] {
			got = append(got, Message{Buf: bytes.Clone(m.Buf[:m.N]), N: m.N, Addr: m.Addr})
		}
	}
	return got
}

func TestBatchRoundTrip(t *testing.T) {
	srv, cli := listen(t), listen(t)
	const count = 500
	out := make([]Message, count)
	for i := range out {
		out[i] = Message{Buf: []byte(fmt.Sprintf("datagram %04d", i)), Addr: srv.LocalAddr()}
	}
	if n, err := cli.WriteBatch(out); err != nil || n != count {
		t.Fatalf("WriteBatch = %d, %v; want %d", n, err, count)
	}
	got := readAll(t, srv, count)
	for i, m := range got {
		if want := fmt.Sprintf("datagram %04d", i); string(m.Buf) != want {
			t.Fatalf("datagram %d = %q, want %q (loopback keeps order)", i, m.Buf, want)
		}
		if m.Addr != cli.LocalAddr() {
			t.Fatalf("datagram %d from %v, want %v", i, m.Addr, cli.LocalAddr())
		}
	}
}

func TestWriteToManyPeers(t *testing.T) {
	srv := listen(t)
	peers := []*Conn{listen(t), listen(t), listen(t)}
	var out []Message
	for i, p := range peers {
		out = append(out, Message{Buf: []byte{byte(i)}, Addr: p.LocalAddr()})
	}
	if _, err := srv.WriteBatch(out); err != nil {
		t.Fatal(err)
	}
	for i, p := range peers {
		m := readAll(t, p, 1)[0]
		if m.N != 1 || m.Buf[0] != byte(i) || m.Addr != srv.LocalAddr() {
			t.Fatalf("peer %d got %v from %v", i, m.Buf, m.Addr)
		}
	}
}

func TestTruncatedDatagram(t *testing.T) {
	srv, cli := listen(t), listen(t)
	big := bytes.Repeat([]byte{7}, 1000)
	if _, err := cli.WriteBatch([]Message{{Buf: big, Addr: srv.LocalAddr()}}); err != nil {
		t.Fatal(err)
	}
	ms := newMsgs(1, 100)
	srv.uc.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := srv.ReadBatch(ms)
	if err != nil || n != 1 {
		t.Fatalf("ReadBatch = %d, %v", n, err)
	}
	if ms[0].N > 100 {
		t.Fatalf("N = %d beyond the 100-byte buffer", ms[0].N)
	}
}

func TestCloseUnblocksRead(t *testing.T) {
	c, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.ReadBatch(newMsgs(4, 64))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond) // let the reader block; the test only needs it to be blocked or about to be
	c.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("ReadBatch after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadBatch still blocked 5 s after Close")
	}
}

func TestListenAddresses(t *testing.T) {
	c, err := Listen(":0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.LocalAddr().Addr().Is4() || c.LocalAddr().Port() == 0 {
		t.Fatalf(":0 bound %v, want an IPv4 wildcard with a port", c.LocalAddr())
	}
	if _, err := Listen("not an address"); err == nil {
		t.Fatal("Listen of a bad address succeeded")
	}
	if c6, err := Listen("[::1]:0"); err == nil {
		defer c6.Close()
		cli, err := Listen("[::1]:0")
		if err != nil {
			t.Fatal(err)
		}
		defer cli.Close()
		if _, err := cli.WriteBatch([]Message{{Buf: []byte("v6"), Addr: c6.LocalAddr()}}); err != nil {
			t.Fatal(err)
		}
		m := readAll(t, c6, 1)[0]
		if string(m.Buf) != "v6" || m.Addr != cli.LocalAddr() {
			t.Fatalf("v6 got %q from %v, want from %v", m.Buf, m.Addr, cli.LocalAddr())
		}
	} // a machine without IPv6 loopback skips only this part
}

// TestNoAllocs: a steady-state write and read of a full batch allocates nothing.
func TestNoAllocs(t *testing.T) {
	srv, cli := listen(t), listen(t)
	out := newMsgs(MaxBatch, 100)
	for i := range out {
		out[i].Addr = srv.LocalAddr()
	}
	in := newMsgs(MaxBatch, 1500)
	srv.uc.SetReadDeadline(time.Now().Add(10 * time.Second))
	step := func() {
		if _, err := cli.WriteBatch(out); err != nil {
			t.Fatal(err)
		}
		for got := 0; got < len(out); {
			n, err := srv.ReadBatch(in)
			if err != nil {
				t.Fatal(err)
			}
			got += n
		}
	}
	step() // warm the address cache and pools
	if raceEnabled {
		step()
		return // the round trip above still ran; counts are meaningless under -race
	}
	if a := testing.AllocsPerRun(50, step); a != 0 {
		t.Fatalf("%.1f allocations per batch of %d datagrams, want 0", a, MaxBatch)
	}
}

func BenchmarkLoopback(b *testing.B) {
	for _, batch := range []int{1, 8, MaxBatch} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			srv, cli := listen(b), listen(b)
			out := newMsgs(batch, 100)
			for i := range out {
				out[i].Addr = srv.LocalAddr()
			}
			in := newMsgs(batch, 1500)
			b.ReportAllocs()
			b.SetBytes(int64(100 * batch))
			for b.Loop() {
				if _, err := cli.WriteBatch(out); err != nil {
					b.Fatal(err)
				}
				for got := 0; got < batch; {
					n, err := srv.ReadBatch(in)
					if err != nil {
						b.Fatal(err)
					}
					got += n
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/datagram")
		})
	}
	b.Run("stdlib-one-by-one", func(b *testing.B) {
		srv, cli := listen(b), listen(b)
		buf, in := make([]byte, 100), make([]byte, 1500)
		dst := srv.LocalAddr()
		b.ReportAllocs()
		for b.Loop() {
			for range MaxBatch {
				if _, err := cli.uc.WriteToUDPAddrPort(buf, dst); err != nil {
					b.Fatal(err)
				}
			}
			for range MaxBatch {
				if _, _, err := srv.uc.ReadFromUDPAddrPort(in); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*MaxBatch), "ns/datagram")
	})
}

// TestWrap: a socket opened and used elsewhere (the client handshakes on
// it) reads in batches once wrapped: three datagrams queued before the read
// come out of one ReadBatch, in order, with their source.
func TestWrap(t *testing.T) {
	srv := listen(t)
	uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Wrap(uc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, want := c.LocalAddr(), uc.LocalAddr().(*net.UDPAddr).AddrPort(); got != want {
		t.Fatalf("got local address %v, want %v", got, want)
	}
	var out []Message
	for i := range 3 {
		out = append(out, Message{Buf: []byte{byte(i)}, Addr: c.LocalAddr()})
	}
	if _, err := srv.WriteBatch(out); err != nil {
		t.Fatal(err)
	}
	ms := newMsgs(8, 100)
	uc.SetReadDeadline(time.Now().Add(5 * time.Second))
	got := 0
	for got < 3 {
		n, err := c.ReadBatch(ms)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms[:n] {
			if m.N != 1 || m.Buf[0] != byte(got) || m.Addr != srv.LocalAddr() {
				t.Fatalf("datagram %d: got %v from %v, want [%d] from %v", got, m.Buf[:m.N], m.Addr, got, srv.LocalAddr())
			}
			got++
		}
	}
}
