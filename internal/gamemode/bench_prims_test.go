package gamemode

import (
	"testing"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/grid"
)

// BenchmarkPrimEvent measures checkpoint_enter and object_move_end raised
// in Lua against chat, the existing event with a player argument.
func BenchmarkPrimEvent(b *testing.B) {
	f := newFixture(b, files("main.lua", `
		n = 0
		dlmp.on("chat", function(p, text) n = n + 1 end)
		dlmp.on("checkpoint_enter", function(p, cp) n = n + 1 end)
		dlmp.on("object_move_end", function(o) n = n + 1 end)
		dlmp.on("player_connect", function(p) cp = dlmp.create_checkpoint(p, 100, 0, 3) end)
		ob = dlmp.create_object(1337, 0, 50, 3)
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{Z: 3})
	cp := p.Checkpoints()[0]
	b.Run("chat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.m.Chat(p, "hello")
		}
	})
	b.Run("checkpoint_enter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.m.CheckpointEnter(p, cp)
		}
	})
	b.Run("object_move_end", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.m.ObjectMoveEnd(1)
		}
	})
}

// BenchmarkLabelChange measures label:set_text from Lua against
// world.SetLabel from Go, the cost of the binding.
func BenchmarkLabelChange(b *testing.B) {
	f := newFixture(b, files("main.lua", `
		lab = dlmp.create_label("a", 0, 0, 3)
		function set(n) for i = 1, n do lab:set_text(i % 2 == 0 and "even" or "odd") end end
	`))
	p, c := f.join()
	f.spawn(p, c, grid.Vec{X: 1000, Z: 3}) // far: the change streams to nobody
	L := f.m.Runtime().L
	fn := L.GetGlobal("set")
	b.Run("world.SetLabel", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			lp := f.w.Label(1).Params()
			lp.Text = [2]string{"even", "odd"}[i%2]
			i++
			if err := f.w.SetLabel(1, lp); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lua set_text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !f.m.Runtime().Call("set", fn, lua.LNumber(1)) {
				b.Fatal(f.logs.String())
			}
		}
	})
}
