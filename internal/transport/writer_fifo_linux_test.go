package transport

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"dlmp/internal/rtthread"
	"dlmp/internal/wire"
)

// syncBuffer is a log sink the writer goroutine and the test may share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestWriterThreadRealTime (decision 0426): with Config.WriterFIFO the
// writer's thread runs as SCHED_FIFO and still writes what the tick hands
// it; where the process may not (no CAP_SYS_NICE) the writer says so in a
// warning and writes from an ordinary thread. Without the option it stays
// ordinary.
func TestWriterThreadRealTime(t *testing.T) {
	var logs syncBuffer
	f := newFixture(t, Config{WriterFIFO: 5, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	deadline := time.Now().Add(5 * time.Second)
	for f.srv.WriterThread() == 0 && !strings.Contains(logs.String(), "writer thread stays") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if tid := f.srv.WriterThread(); tid != 0 {
		p, err := rtthread.Policy(tid)
		if err != nil || p != rtthread.FIFO {
			t.Fatalf("writer thread %d: policy %d (%v), want %d (SCHED_FIFO)", tid, p, err, rtthread.FIFO)
		}
		if !strings.Contains(logs.String(), "writer thread real-time") {
			t.Errorf("no log of the real-time writer: %q", logs.String())
		}
	} else {
		_, _, err := rtthread.Lock(5) // what the writer got, asked here
		if !errors.Is(err, syscall.EPERM) || !strings.Contains(logs.String(), "writer thread stays in the ordinary class") {
			t.Fatalf("writer not real-time: Lock here gives %v, logs %q; want EPERM and the warning", err, logs.String())
		}
	}
	// It writes: a move the tick hands over reaches the client.
	c := dial(t, f)
	c.connect(f)
	m := wire.PlayerMove{PlayerID: 77}
	f.w.joined[0].SendUnreliable(m.Append(nil))
	f.tick(50 * time.Millisecond)
	for {
		d := c.read(2 * time.Second)
		if d == nil {
			t.Fatal("the move never arrived")
		}
		for _, p := range packets(t, d) {
			if pm, ok := p.(*wire.PlayerMove); ok && pm.PlayerID == 77 {
				return
			}
		}
	}
}

// TestWriterThreadOrdinaryByDefault: without WriterFIFO the writer takes
// no thread of its own.
func TestWriterThreadOrdinaryByDefault(t *testing.T) {
	f := newFixture(t, Config{})
	c := dial(t, f)
	c.connect(f) // the writer has written the ServerHello
	if tid := f.srv.WriterThread(); tid != 0 {
		t.Fatalf("WriterThread() = %d without WriterFIFO, want 0", tid)
	}
}
