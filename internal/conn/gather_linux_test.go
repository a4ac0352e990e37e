package conn

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// gathered returns ms as gather messages: each one's bytes cut into pieces
// of piece bytes (the last shorter), with an empty piece every fifth, so
// that datagram boundaries fall inside pieces and between them.
func gathered(ms []Message, piece int) []Message {
	out := make([]Message, len(ms))
	for i, m := range ms {
		var bufs [][]byte
		for off := 0; off < len(m.Buf); off += piece {
			if len(bufs)%5 == 4 {
				bufs = append(bufs, m.Buf[off:off])
			}
			bufs = append(bufs, m.Buf[off:min(off+piece, len(m.Buf))])
		}
		out[i] = Message{Bufs: bufs, Seg: m.Seg, Addr: m.Addr}
	}
	return out
}

// TestGatherSendsTheDatagrams: gather messages reach a plain socket as the
// datagrams their bytes make, in order, with GSO (a piece per message, or
// two when past the bytes or the kernel's iovecs) and one by one.
func TestGatherSendsTheDatagrams(t *testing.T) {
	for _, iovec := range []bool{false, true} {
		for _, gso := range []bool{true, false} {
			for _, piece := range []int{42, 1000, 7} {
				t.Run(fmt.Sprintf("iovec=%v/gso=%v/piece=%d", iovec, gso, piece), func(t *testing.T) {
					testGatherSends(t, iovec, gso, piece)
				})
			}
		}
	}
}

func testGatherSends(t *testing.T, iovec, gso bool, piece int) {
	srv, cli := listen(t), listen(t)
	cli.batch.gso.Store(gso)
	cli.batch.iovec = iovec
	cw := &counting{real: cli.batch.wbatch}
	cli.batch.wbatch = cw
	plain, want := segMessages(Message{Addr: srv.LocalAddr()},
		[]int{100, 42, 1176, 1000, 7, 1176}, []int{4, 1, 3, 64, 2, 64}, 30)
	ms := gathered(plain, piece)
	n, err := cli.WriteBatch(ms)
	if err != nil || n != len(ms) {
		t.Fatalf("WriteBatch = %d, %v; want %d, nil", n, err, len(ms))
	}
	checkDatagrams(t, readAll(t, srv, len(want)), want)
	if !gso {
		if cw.gso != 0 {
			t.Fatalf("%d GSO messages without GSO", cw.gso)
		}
		return
	}
	// 4 messages of several datagrams and the last (64 × 1176)
	// in two (its bytes). In 42-byte pieces, 64 × 1000 is 1,524
	// pieces of memory, past MaxIovecs: two. In 7-byte pieces
	// (empty ones are left out), 7 datagrams of 1000 a GSO
	// message (1,000 pieces; the 64th datagram alone, not GSO)
	// and 6 of 1176.
	wantGSO := map[int]int{42: 5 + 1 + 1, 1000: 5 + 1, 7: 3 + 9 + 11}[piece]
	if !iovec {
		wantGSO = 6 // copied: one piece of memory each, cut by the bytes only
	}
	if cw.gso != wantGSO {
		t.Fatalf("%d GSO messages sent, want %d", cw.gso, wantGSO)
	}
}

// TestGatherRefusedFallsBack: a refused gather GSO message is sent again one
// datagram at a time from the same pieces: each datagram once, in order.
func TestGatherRefusedFallsBack(t *testing.T) {
	for _, errno := range []unix.Errno{unix.EIO, unix.EINVAL} {
		for _, iovec := range []bool{false, true} {
			t.Run(fmt.Sprintf("%v/iovec=%v", errno, iovec), func(t *testing.T) {
				srv, cli := listen(t), listen(t)
				r := &refusing{real: cli.batch.wbatch, errno: errno, left: 1}
				cli.batch.wbatch = r
				cli.batch.iovec = iovec
				cli.batch.gso.Store(true)
				plain, want := segMessages(Message{Addr: srv.LocalAddr()}, []int{42, 100, 500, 300}, []int{1, 5, 3, 2}, 10)
				ms := gathered(plain, 42)
				n, err := cli.WriteBatch(ms)
				if err != nil || n != len(ms) {
					t.Fatalf("WriteBatch = %d, %v; want %d, nil", n, err, len(ms))
				}
				checkDatagrams(t, readAll(t, srv, len(want)), want)
				if r.refused != 1 {
					t.Fatalf("%d refusals, want 1", r.refused)
				}
			})
		}
	}
}

func TestGatherEnd(t *testing.T) {
	pieces := func(n, size int) [][]byte {
		b := make([][]byte, n)
		for i := range b {
			b[i] = make([]byte, size)
		}
		return b
	}
	for _, c := range []struct {
		name           string
		bufs           [][]byte
		skip, end, seg int
		want           int
	}{
		{"within", pieces(100, 10), 0, 1000, 100, 1000},
		{"past MaxIovecs: last boundary", pieces(2000, 10), 0, 20000, 100, 10200},
		{"boundary inside a piece", pieces(2000, 10), 5, 20000, 25, 5 + 25*409},
		{"one datagram past MaxIovecs", pieces(3000, 1), 0, 3000, 1500, 1500},
	} {
		if got := gatherEnd(c.bufs, c.skip, c.end, c.seg); got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, got, c.want)
		}
	}
}

// TestGatherNoAllocs: a steady write of gather GSO messages allocates
// nothing once the batcher's list of pieces has grown.
func TestGatherNoAllocs(t *testing.T) {
	for _, iovec := range []bool{false, true} {
		t.Run(fmt.Sprintf("iovec=%v", iovec), func(t *testing.T) { testGatherNoAllocs(t, iovec) })
	}
}

func testGatherNoAllocs(t *testing.T, iovec bool) {
	srv, cli := listen(t), listen(t)
	cli.batch.iovec = iovec
	plain, want := segMessages(Message{Addr: srv.LocalAddr()}, []int{1176, 1176, 200}, []int{3, 4, 1}, 100)
	ms := gathered(plain, 42)
	checkWriteNoAllocs(t, srv, cli, ms, len(want), "gather messages")
}

// appendRange, walked piece after piece with its cursor (as a message's
// datagrams are sent one by one) and from anywhere, gives the bytes of
// the range: pieces of every size, empty ones among them.
func TestAppendRangeCursor(t *testing.T) {
	var bufs [][]byte
	var whole []byte
	for i := range 60 {
		b := make([]byte, (i*37)%50) // some empty
		for j := range b {
			b[j] = byte(len(whole) + j)
		}
		bufs = append(bufs, b)
		whole = append(whole, b...)
	}
	cat := func(bs [][]byte) []byte {
		var out []byte
		for _, b := range bs {
			if len(b) == 0 {
				t.Fatal("an empty piece in the list")
			}
			out = append(out, b...)
		}
		return out
	}
	for _, step := range []int{1, 7, 42, 100, 1000} {
		var c cursor
		for at := 0; at < len(whole); at += step {
			end := min(at+step, len(whole))
			if at == 0 && end == len(whole) {
				continue // the whole list: appended as it is
			}
			if got := cat(appendRange(nil, bufs, at, end, len(whole), &c)); string(got) != string(whole[at:end]) {
				t.Fatalf("step %d, [%d, %d): got %d bytes, want %d", step, at, end, len(got), end-at)
			}
			var fresh cursor
			if got := cat(appendRange(nil, bufs, at, end, len(whole), &fresh)); string(got) != string(whole[at:end]) {
				t.Fatalf("step %d, [%d, %d) from the start: wrong bytes", step, at, end)
			}
		}
		// A cursor past the range starts again from the first piece.
		if got := cat(appendRange(nil, bufs, 3, 9, len(whole), &c)); string(got) != string(whole[3:9]) {
			t.Fatalf("step %d: a range before the cursor: wrong bytes", step)
		}
	}
}
