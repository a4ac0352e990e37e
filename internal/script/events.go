package script

import (
	"fmt"
	"slices"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// installCore adds the runtime's own functions to the dlmp table: events
// (on, off) and timers (set_timer, kill_timer).
func (r *Runtime) installCore(t *lua.LTable) {
	L := r.L
	t.RawSetString("on", L.NewFunction(r.luaOn))
	t.RawSetString("off", L.NewFunction(r.luaOff))
	t.RawSetString("set_timer", L.NewFunction(r.luaSetTimer))
	t.RawSetString("kill_timer", L.NewFunction(r.luaKillTimer))
}

// dlmp.on(event, fn): fn runs on every event of that name, after the
// handlers added before it.
func (r *Runtime) luaOn(L *lua.LState) int {
	ev := L.CheckString(1)
	fn := L.CheckFunction(2)
	r.handlers[ev] = append(r.handlers[ev], fn)
	return 0
}

// dlmp.off(event, fn): removes a handler added with on. Returns whether it was there.
func (r *Runtime) luaOff(L *lua.LState) int {
	ev := L.CheckString(1)
	fn := L.CheckFunction(2)
	hs := r.handlers[ev]
	i := slices.Index(hs, fn)
	if i >= 0 {
		r.handlers[ev] = slices.Delete(slices.Clone(hs), i, i+1)
	}
	L.Push(lua.LBool(i >= 0))
	return 1
}

// Has reports whether any handler listens to event.
func (r *Runtime) Has(event string) bool { return len(r.handlers[event]) > 0 }

// Emit runs every handler of event with args, each protected and budgeted.
// A failing handler is logged and does not stop the next one. It returns
// the number of handlers that ran without error.
func (r *Runtime) Emit(event string, args ...lua.LValue) int {
	hs := r.handlers[event] // handlers added during the emit run from the next one on
	ok := 0
	for _, fn := range hs {
		if r.Call("event "+event, fn, args...) {
			ok++
		}
	}
	return ok
}

// Decide runs every handler of event with args, like Emit, and reports
// whether any of them returned true: how a gamemode accepts what the world
// asks it about (an edit). A failing handler counts as not accepting.
func (r *Runtime) Decide(event string, args ...lua.LValue) bool {
	yes := false
	for _, fn := range r.handlers[event] {
		ret, err := r.callN(1, fn, args...)
		if err != nil {
			r.errors++
			r.log.Error("script error", "in", "event "+event, "err", err.Error())
			continue
		}
		yes = yes || ret == lua.LTrue
	}
	return yes
}

// Tick advances the runtime's clock to now and fires the timers that are due.
func (r *Runtime) Tick(now time.Time) {
	r.now = now
	r.timers.fire(now, func(t *timer) {
		r.Call(fmt.Sprintf("timer %d", t.id), t.fn)
	})
}

// dlmp.set_timer(ms, fn [, repeat]): calls fn after ms milliseconds (on the
// tick), again every ms if repeat is true. Returns the timer id.
func (r *Runtime) luaSetTimer(L *lua.LState) int {
	ms := L.CheckNumber(1)
	fn := L.CheckFunction(2)
	repeat := L.OptBool(3, false)
	if ms < 0 || ms != ms {
		L.ArgError(1, "interval must be a number of milliseconds ≥ 0")
	}
	if repeat && ms < 1 {
		L.ArgError(1, "a repeating timer needs an interval of at least 1 ms")
	}
	d := time.Duration(float64(ms) * float64(time.Millisecond))
	L.Push(lua.LNumber(r.timers.add(r.now, d, repeat, fn)))
	return 1
}

// dlmp.kill_timer(id): stops a timer. Returns whether it was running.
func (r *Runtime) luaKillTimer(L *lua.LState) int {
	L.Push(lua.LBool(r.timers.kill(L.CheckInt64(1))))
	return 1
}
