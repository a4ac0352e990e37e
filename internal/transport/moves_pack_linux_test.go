package transport

import (
	"runtime"
	"testing"
	"time"

	"dlmp/internal/threadcpu"
	"dlmp/internal/wire"
)

// sendSpansAtSend is SendUnreliableSpans as it was before decision 0388
// (main 4479169): the run packed into the session's datagrams (its parts,
// unrelEnd, partEnd) as it comes, kept as BenchmarkMovesCutAtStep's
// baseline. The step emits them from there as before.
func (s *Session) sendSpansAtSend(buf []byte, spans []uint64) {
	if s.closing != 0 || s.ended {
		return
	}
	base, ok := s.srv.tick.shareMoves(buf)
	if !ok {
		panic("sendSpansAtSend: no shared moves")
	}
	parts, ends, pend := s.parts, s.unrelEnd, s.partEnd
	queued := false
	start, total := s.lastStart(), 0
	if k := len(ends); k > 0 {
		total = ends[k-1]
	}
	for _, sp := range spans {
		off, n := uint64(uint32(sp)), sp>>32
		if n > wire.MaxDatagram || off+n > uint64(len(buf)) {
			continue
		}
		p := (base + off) | n<<32 | partShared
		if len(ends) == 0 || total+int(n)-start > wire.MaxDatagram {
			if k := len(ends); k > 0 {
				ends[k-1], pend[k-1] = total, len(parts)
			}
			start, ends, pend = total, append(ends, 0), append(pend, 0)
			parts = append(parts, p)
		} else if last := parts[len(parts)-1]; last&partShared != 0 && uint64(uint32(last))+(last>>32&partLen) == base+off {
			parts[len(parts)-1] = last + n<<32
		} else {
			parts = append(parts, p)
		}
		total += int(n)
		queued = true
	}
	if k := len(ends); k > 0 {
		ends[k-1], pend[k-1] = total, len(parts)
	}
	if queued {
		s.sharedGen = s.srv.tick.movesGen + 1
	}
	s.parts, s.unrelEnd, s.partEnd = parts, ends, pend
}

// BenchmarkMovesCutAtStep is BenchmarkMovesFanout's tick (1000 sessions,
// 88 moves each as spans of the world's one buffer, then Flush, the
// writer's sends to 20 loopback sockets waited for outside the measure)
// with each session's run cut into datagrams at its step (at-step,
// decision 0388) and packed as it comes (at-send, the code before it:
// sendSpansAtSend), side by side in the same loop: ticks in the order
// at-step, at-send, at-send, at-step, so that the machine's load falls on
// both. Reported per tick of each kind, by the tick thread's CPU clock:
// the sends, and the sends and the Flush.
//
//	go test ./internal/transport -run '^$' -bench MovesCutAtStep -benchtime 400x
func BenchmarkMovesCutAtStep(b *testing.B) {
	const sessions, movers, moves = 1000, 1000, 88
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s, all, now := sinkSessions(b, Config{Timeout: time.Hour}, sessions)
	spans := make([][]uint64, sessions)
	for i := range all {
		spans[i] = scatteredSpans(i, moves, movers)
	}
	world := make([]byte, movers*42)
	var send, tick [2]time.Duration // at-send, at-step
	var ticks [2]int
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		atStep := b2i(i%4 == 0 || i%4 == 3)
		i++
		now = now.Add(50 * time.Millisecond)
		for i := range world { // the world's encodeMoves, in place
			world[i] = byte(i) + byte(now.UnixMilli())
		}
		c0 := threadcpu.Spent()
		for i, sess := range all {
			if atStep == 1 {
				sess.SendUnreliableSpans(world, spans[i])
			} else {
				sess.sendSpansAtSend(world, spans[i])
			}
		}
		c1 := threadcpu.Spent()
		s.Flush(now)
		c2 := threadcpu.Spent()
		send[atStep] += c1 - c0
		tick[atStep] += c2 - c0
		ticks[atStep]++
		for s.Pending() > 0 {
			time.Sleep(50 * time.Microsecond)
		}
	}
	for k, name := range []string{"at-send", "at-step"} {
		n := float64(max(ticks[k], 1)) * float64(time.Microsecond)
		b.ReportMetric(float64(send[k])/n, "sends-us/"+name)
		b.ReportMetric(float64(tick[k])/n, "tick-us/"+name)
	}
	if d := s.Stats().UnreliableDropped; d != 0 {
		b.Errorf("%d unreliable datagrams dropped", d)
	}
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
