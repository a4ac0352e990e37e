package gamemode

import (
	"os"
	"path/filepath"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
	"dlmp/internal/mapfile"
)

// One world event dispatched into a Lua handler: the runtime's bare Emit
// with ready values (the baseline), the Mode's chat event (a player handle
// and a string built per event), and an event nobody listens to.
func BenchmarkEvent(b *testing.B) {
	f := newFixture(b, files("main.lua", `n = 0; dlmp.on("chat", function(p, text) n = n + 1 end)`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	rt := f.m.Runtime()
	ud := f.m.player(p)
	b.Run("script.Emit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rt.Emit("chat", ud, lua.LString("hello"))
		}
	})
	b.Run("Mode.Chat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.m.Chat(p, "hello")
		}
	})
	b.Run("no-handler", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.m.PlayerDeath(p)
		}
	})
}

// A Go function called from Lua, 1000 calls per op: a bare function
// (script's own benchmark shape, the baseline), a dlmp function, a method
// on a player handle (metatable lookup and liveness check) and a command
// that reaches the world.
func BenchmarkGoFromLua(b *testing.B) {
	f := newFixture(b, files("main.lua", `
		pk = dlmp.create_pickup(1240, 0, 0, 3)
		function bare(n) local s = 0; for i = 1, n do s = s + bench_f(i) end; return s end
		function weather(n) local s = 0; for i = 1, n do s = s + dlmp.get_weather() end; return s end
		function health(n, p) local s = 0; for i = 1, n do s = s + p:health() end; return s end
		function move(n) for i = 1, n do pk:set_position(i % 100, 0, 3) end end
	`))
	L := f.m.Runtime().L
	L.SetGlobal("bench_f", L.NewFunction(func(L *lua.LState) int { L.Push(L.CheckNumber(1)); return 1 }))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 500, Z: 3}) // far from the pickup: moves stream to nobody
	ud := f.m.player(p)
	const n = 1000
	for _, bc := range []struct {
		name string
		fn   string
		args []lua.LValue
	}{
		{"bare", "bare", nil},
		{"dlmp.get_weather", "weather", nil},
		{"player:health", "health", []lua.LValue{ud}},
		{"pickup:set_position", "move", nil},
	} {
		fn := L.GetGlobal(bc.fn)
		args := append([]lua.LValue{lua.LNumber(n)}, bc.args...)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f.m.Runtime().Call("bench", fn, args...)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/call")
		})
	}
	f.noErrors()
}

// load_map of real maps against parsing them alone (mapfile.Parse, the
// baseline): death-rally-final (1,033 objects, 146 elements: objects are
// counted, not created, until the world holds objects) and port69 (176
// pickups created in the world).
func BenchmarkLoadMap(b *testing.B) {
	for _, name := range []string{"death-rally-final.map", "port69.map"} {
		data, err := os.ReadFile(filepath.Join(mapsDir, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/mapfile.Parse", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := mapfile.Parse(data, mapfile.Options{Name: name}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/load_map", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				b.StopTimer()
				f := newFixture(b, withMaps(b, `function load() return dlmp.load_map("maps/`+name+`") end`, name))
				fn := f.m.Runtime().L.GetGlobal("load")
				b.StartTimer()
				if !f.m.Runtime().Call("load", fn) {
					b.Fatal(f.logs.String())
				}
				b.StopTimer()
				f.m.Close()
				b.StartTimer()
			}
		})
	}
}
