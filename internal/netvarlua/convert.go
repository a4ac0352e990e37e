package netvarlua

import (
	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/netvar"
)

// maxDepth bounds the tables converted in either direction.
const maxDepth = netvar.MaxTableDepth

// toGo converts a Lua value to netvar's form for var v (nil when unknown):
// a Vector/Normal var takes {x=, y=, z=} or {x, y, z}, an Angle {p, y, r},
// a Color {r=, g=, b=, a=}; an entity handle is its Ref; another table a
// netvar.Table. A value with no form becomes a string the store refuses
// with a logged error naming the var.
func (b *Binding) toGo(v *netvar.Var, lv lua.LValue) any {
	if v != nil {
		if t, ok := lv.(*lua.LTable); ok {
			switch c, _ := v.Codec(); c {
			case netvar.CodecVector, netvar.CodecNormal:
				x, y, z := triple(t, "x", "y", "z")
				return netvar.Vector{X: x, Y: y, Z: z}
			case netvar.CodecAngle:
				p, y, r := triple(t, "p", "y", "r")
				return netvar.Angle{P: p, Y: y, R: r}
			case netvar.CodecColor:
				r, g, bl := triple(t, "r", "g", "b")
				a := float32(255)
				if n, ok := t.RawGetString("a").(lua.LNumber); ok {
					a = float32(n)
				} else if n, ok := t.RawGetInt(4).(lua.LNumber); ok {
					a = float32(n)
				}
				return netvar.Color{R: clamp8(r), G: clamp8(g), B: clamp8(bl), A: clamp8(a)}
			}
		}
	}
	return b.plainGo(lv, 0)
}

func (b *Binding) plainGo(lv lua.LValue, depth int) any {
	switch x := lv.(type) {
	case *lua.LNilType:
		return nil
	case lua.LBool:
		return bool(x)
	case lua.LNumber:
		return float64(x)
	case lua.LString:
		return string(x)
	case *lua.LTable:
		if depth >= maxDepth {
			return badValue("a table nested too deep")
		}
		t := netvar.Table{}
		x.ForEach(func(k, e lua.LValue) { t[b.plainGo(k, depth+1)] = b.plainGo(e, depth+1) })
		return t
	}
	if r, ok := b.ref(lv); ok {
		return r
	}
	return badValue(lv.Type().String())
}

// badValue is a value the store refuses (its type has no netvar form).
type badValue string

func triple(t *lua.LTable, a, b, c string) (float32, float32, float32) {
	get := func(name string, i int) float32 {
		if n, ok := t.RawGetString(name).(lua.LNumber); ok {
			return float32(n)
		}
		n, _ := t.RawGetInt(i).(lua.LNumber)
		return float32(n)
	}
	return get(a, 1), get(b, 2), get(c, 3)
}

func clamp8(f float32) uint8 { return uint8(min(max(f, 0), 255)) }

// toLua converts a netvar value to Lua.
func (b *Binding) toLua(v any) lua.LValue {
	L := b.L
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case bool:
		return lua.LBool(x)
	case float64:
		return lua.LNumber(x)
	case string:
		return lua.LString(x)
	case []byte:
		return lua.LString(x)
	case netvar.Vector:
		t := L.NewTable()
		t.RawSetString("x", lua.LNumber(x.X))
		t.RawSetString("y", lua.LNumber(x.Y))
		t.RawSetString("z", lua.LNumber(x.Z))
		return t
	case netvar.Angle:
		t := L.NewTable()
		t.RawSetString("p", lua.LNumber(x.P))
		t.RawSetString("y", lua.LNumber(x.Y))
		t.RawSetString("r", lua.LNumber(x.R))
		return t
	case netvar.Color:
		t := L.NewTable()
		t.RawSetString("r", lua.LNumber(x.R))
		t.RawSetString("g", lua.LNumber(x.G))
		t.RawSetString("b", lua.LNumber(x.B))
		t.RawSetString("a", lua.LNumber(x.A))
		return t
	case netvar.Ref:
		return b.handle(x)
	case netvar.Table:
		t := L.NewTable()
		for k, e := range x {
			t.RawSet(b.toLua(k), b.toLua(e))
		}
		return t
	}
	return lua.LNil
}
