package script

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// budget is the context the VM checks before every instruction. A watchdog
// goroutine closes its Done channel when the running callback has overrun
// its limit; end replaces a closed channel so the next callback starts fresh.
// One budget serves every callback: no allocation per call. Callbacks nest
// (Lua calls Go, which calls back into Lua): only the outermost one starts
// and ends the watch, so an inner callback finishing never switches the
// limit off for the outer one.
type budget struct {
	limit   time.Duration
	depth   int          // callbacks in progress; owned by the VM's goroutine
	started atomic.Int64 // unix nanos of the running callback's start; 0 = none
	done    atomic.Pointer[chan struct{}]
	mu      sync.Mutex // guards closing done
	closed  atomic.Bool
	quit    chan struct{}
}

func newBudget(limit time.Duration) *budget {
	b := &budget{limit: limit, quit: make(chan struct{})}
	ch := make(chan struct{})
	b.done.Store(&ch)
	go b.watch()
	return b
}

// watch checks the running callback a few times per limit.
func (b *budget) watch() {
	period := max(b.limit/8, time.Millisecond)
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-b.quit:
			return
		case now := <-t.C:
			s := b.started.Load()
			if s != 0 && now.UnixNano()-s > int64(b.limit) {
				b.mu.Lock()
				if !b.closed.Load() && b.started.Load() == s {
					close(*b.done.Load())
					b.closed.Store(true)
				}
				b.mu.Unlock()
			}
		}
	}
}

func (b *budget) begin() {
	b.depth++
	if b.depth == 1 {
		b.started.Store(time.Now().UnixNano())
	}
}

// end marks a callback finished and reports whether it was stopped.
func (b *budget) end() bool {
	b.depth--
	if b.depth > 0 {
		return b.closed.Load() // the outer callback resets the budget
	}
	b.started.Store(0)
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed.Load() {
		return false
	}
	ch := make(chan struct{})
	b.done.Store(&ch)
	b.closed.Store(false)
	return true
}

func (b *budget) stop() {
	select {
	case <-b.quit:
	default:
		close(b.quit)
	}
}

// context.Context, as the VM sees it.

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Done() <-chan struct{}       { return *b.done.Load() }
func (b *budget) Value(any) any               { return nil }
func (b *budget) Err() error {
	if b.closed.Load() {
		return context.DeadlineExceeded
	}
	return nil
}
