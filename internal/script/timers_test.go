package script

import (
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

func TestTimers(t *testing.T) {
	r, _ := load(t, map[string]string{"main.lua": `
		log = {}
		local function mark(s) return function() log[#log + 1] = s end end
		once = dlmp.set_timer(100, mark("once"))
		every = dlmp.set_timer(50, mark("every"), true)
		killed = dlmp.set_timer(10, mark("killed"))
		dlmp.kill_timer(killed)
		dlmp.set_timer(30, function() log[#log + 1] = "self"; dlmp.kill_timer(every) end)
		bad = pcall(dlmp.set_timer, -1, mark("x"))
	`}, Options{})
	step := func(ms int) { r.Tick(t0.Add(time.Duration(ms) * time.Millisecond)) }
	step(29)
	if n := global(r, "log").(*lua.LTable).Len(); n != 0 {
		t.Fatalf("%d timers fired before 30 ms", n)
	}
	step(30) // "self" kills "every" before it ever fires
	step(60)
	step(100)
	step(400)
	got := []string{}
	global(r, "log").(*lua.LTable).ForEach(func(_, v lua.LValue) { got = append(got, v.String()) })
	want := []string{"self", "once"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("timers fired %v, want %v", got, want)
	}
	if global(r, "bad") != lua.LFalse {
		t.Fatal("a negative interval was accepted")
	}
	if r.timers.Len() != 0 {
		t.Fatalf("%d timers left scheduled", r.timers.Len())
	}
}

func TestRepeatingTimerNoDrift(t *testing.T) {
	r, _ := load(t, map[string]string{"main.lua": `n = 0; dlmp.set_timer(50, function() n = n + 1 end, true)`}, Options{})
	for ms := 0; ms <= 1000; ms += 7 { // ticks that never land on the timer's period
		r.Tick(t0.Add(time.Duration(ms) * time.Millisecond))
	}
	if n := global(r, "n"); n != lua.LNumber(19) { // due at 50, 100, ..., 950; 1000 is not reached (994 is the last tick)
		t.Fatalf("a 50 ms timer fired %v times in 994 ms, want 19", n)
	}
}

func BenchmarkEmit(b *testing.B) {
	r, _ := load(&testing.T{}, map[string]string{"main.lua": `n = 0; dlmp.on("e", function(a, b) n = n + a end)`}, Options{})
	defer r.Close()
	b.ReportAllocs()
	for b.Loop() {
		r.Emit("e", lua.LNumber(1), lua.LNumber(2))
	}
}

func BenchmarkGoFromLua(b *testing.B) {
	r, _ := load(&testing.T{}, map[string]string{"main.lua": `
		function run(n) local s = 0; for i = 1, n do s = s + dlmp.f(i) end; return s end`}, Options{
		Install: func(L *lua.LState, t *lua.LTable) {
			t.RawSetString("f", L.NewFunction(func(L *lua.LState) int { L.Push(L.CheckNumber(1)); return 1 }))
		},
	})
	defer r.Close()
	const n = 1000
	fn := r.L.GetGlobal("run")
	b.ReportAllocs()
	for b.Loop() {
		r.Call("bench", fn, lua.LNumber(n))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
}
