package gamemode

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"dlmp/internal/world"
)

// Argument readers. Each raises a Lua error naming the function, the
// argument and the rule, in the form of the world's errors:
// "create_pickup: model: must be an integer 0..19999, got 1.5".

// raise turns a world error into a Lua error (with the script's position).
func raise(L *lua.LState, err error) {
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
}

// raiseAs raises a world error under the name the Lua API gives the
// command, when the world's name differs (player:set_time is the world's
// set_player_time).
func raiseAs(L *lua.LState, name string, err error) {
	var ae *world.ArgError
	if errors.As(err, &ae) {
		renamed := *ae
		renamed.Func = name
		err = &renamed
	}
	raise(L, err)
}

func argFail(L *lua.LState, fn, arg, rule string, args ...any) {
	L.RaiseError("%s: %s: %s", fn, arg, fmt.Sprintf(rule, args...))
}

// number reads argument n as a number.
func number(L *lua.LState, n int, fn, arg string) float64 {
	v, ok := L.Get(n).(lua.LNumber)
	if !ok {
		argFail(L, fn, arg, "must be a number, got %s", describe(L.Get(n)))
	}
	return float64(v)
}

// boolean reads argument n, a boolean.
func boolean(L *lua.LState, n int, fn, arg string) bool {
	v, ok := L.Get(n).(lua.LBool)
	if !ok {
		argFail(L, fn, arg, "must be a boolean, got %s", describe(L.Get(n)))
	}
	return bool(v)
}

// coord reads a coordinate; the world checks its range.
func coord(L *lua.LState, n int, fn, arg string) float32 {
	return float32(number(L, n, fn, arg))
}

// integer reads argument n as an integer within lo..hi.
func integer(L *lua.LState, n int, fn, arg string, lo, hi int64) int64 {
	return checkInt(L, number(L, n, fn, arg), fn, arg, lo, hi)
}

func checkInt(L *lua.LState, f float64, fn, arg string, lo, hi int64) int64 {
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		argFail(L, fn, arg, "must be an integer %d..%d, got %v", lo, hi, lua.LNumber(f))
	}
	return int64(f)
}

// optInteger reads an optional integer argument.
func optInteger(L *lua.LState, n int, fn, arg string, lo, hi, def int64) int64 {
	if L.Get(n) == lua.LNil {
		return def
	}
	return integer(L, n, fn, arg, lo, hi)
}

// text reads argument n as a string.
func text(L *lua.LState, n int, fn, arg string) string {
	v, ok := L.Get(n).(lua.LString)
	if !ok {
		argFail(L, fn, arg, "must be a string, got %s", describe(L.Get(n)))
	}
	return string(v)
}

// options reads an optional table of named options (argument n). Every key
// must be one of known; get reads and checks one.
type options struct {
	L      *lua.LState
	fn     string
	t      *lua.LTable
	prefix string // of the names in errors: "grant." for create_pickup's grant table
}

func optTable(L *lua.LState, n int, fn string, known ...string) *options {
	o := &options{L: L, fn: fn}
	switch v := L.Get(n).(type) {
	case *lua.LNilType:
		return o
	case *lua.LTable:
		o.t = v
	default:
		argFail(L, fn, "options", "must be a table, got %s", describe(v))
	}
	o.t.ForEach(func(k, _ lua.LValue) {
		s, ok := k.(lua.LString)
		if !ok || !slices.Contains(known, string(s)) {
			argFail(L, fn, "options", "unknown option %s (known: %s)", k.String(), strings.Join(known, ", "))
		}
	})
	return o
}

func (o *options) get(key string) lua.LValue {
	if o.t == nil {
		return lua.LNil
	}
	return o.t.RawGetString(key)
}

// field reads the optional field key as a T, reporting kind in the error
// when it holds something else; ok is false when the field is absent.
func field[T lua.LValue](o *options, key, kind string) (v T, ok bool) {
	raw := o.get(key)
	if raw == lua.LNil {
		return v, false
	}
	if v, ok = raw.(T); !ok {
		argFail(o.L, o.fn, o.prefix+key, "must be a %s, got %s", kind, describe(raw))
	}
	return v, true
}

func (o *options) integer(key string, lo, hi, def int64) int64 {
	f, ok := field[lua.LNumber](o, key, "number")
	if !ok {
		return def
	}
	return checkInt(o.L, float64(f), o.fn, o.prefix+key, lo, hi)
}

func (o *options) number(key string, def float64) float64 {
	if f, ok := field[lua.LNumber](o, key, "number"); ok {
		return float64(f)
	}
	return def
}

func (o *options) boolean(key string, def bool) bool {
	if b, ok := field[lua.LBool](o, key, "boolean"); ok {
		return bool(b)
	}
	return def
}

func (o *options) str(key, def string) string {
	if s, ok := field[lua.LString](o, key, "string"); ok {
		return string(s)
	}
	return def
}
