package script

import (
	"container/heap"
	"time"

	lua "github.com/yuin/gopher-lua"
)

type timer struct {
	id     int64
	due    time.Time
	every  time.Duration // 0 = once
	fn     *lua.LFunction
	index  int // in the heap; -1 when not scheduled
	killed bool
}

// timers is a min-heap of timers by due time, then id.
type timers struct {
	h    timerHeap
	byID map[int64]*timer
	next int64
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].id < h[j].id
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }
func (h *timerHeap) Push(x any)   { t := x.(*timer); t.index = len(*h); *h = append(*h, t) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

func (ts *timers) add(now time.Time, d time.Duration, repeat bool, fn *lua.LFunction) int64 {
	if ts.byID == nil {
		ts.byID = map[int64]*timer{}
	}
	ts.next++
	t := &timer{id: ts.next, due: now.Add(d), fn: fn}
	if repeat {
		t.every = d
	}
	ts.byID[t.id] = t
	heap.Push(&ts.h, t)
	return t.id
}

func (ts *timers) kill(id int64) bool {
	t := ts.byID[id]
	if t == nil {
		return false
	}
	delete(ts.byID, id)
	t.killed = true
	if t.index >= 0 {
		heap.Remove(&ts.h, t.index)
	}
	return true
}

// fire runs every timer due at now, in due order; a repeating timer is
// rescheduled from its due time (no drift) but never more than once per fire.
func (ts *timers) fire(now time.Time, run func(*timer)) {
	var again []*timer
	for ts.h.Len() > 0 && !ts.h[0].due.After(now) {
		t := heap.Pop(&ts.h).(*timer)
		run(t)
		if t.killed {
			continue
		}
		if t.every > 0 {
			t.due = t.due.Add(t.every)
			if !t.due.After(now) {
				t.due = now.Add(t.every)
			}
			again = append(again, t)
		} else {
			delete(ts.byID, t.id)
		}
	}
	for _, t := range again {
		heap.Push(&ts.h, t)
	}
}

// Len is the number of scheduled timers.
func (ts *timers) Len() int { return ts.h.Len() }
