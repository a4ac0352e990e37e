package netvar

import (
	"fmt"
	"math"
	"slices"
)

// Vector is a position or direction, also the value of a Normal var.
// Components are float32 as the game's are.
type Vector struct{ X, Y, Z float32 }

// Angle is a rotation in degrees: pitch, yaw, roll.
type Angle struct{ P, Y, R float32 }

// Color is an RGBA colour; A = 255 is opaque and costs no byte on the wire.
type Color struct{ R, G, B, A uint8 }

// Kind is the kind of an entity.
type Kind uint8

// Entity kinds. KindNone is the zero value: no entity (the world).
const (
	KindNone Kind = iota
	KindPlayer
	KindVehicle
	KindObject
)

func (k Kind) String() string {
	switch k {
	case KindNone:
		return "none"
	case KindPlayer:
		return "player"
	case KindVehicle:
		return "vehicle"
	case KindObject:
		return "object"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Ref names an entity: its kind and its id among that kind. The zero Ref
// is "no entity", the owner of Global vars.
type Ref struct {
	Kind Kind
	ID   uint16
}

// PlayerRef returns the Ref of player id.
func PlayerRef(id uint16) Ref { return Ref{KindPlayer, id} }

func (r Ref) String() string {
	if r.Kind == KindNone {
		return "world"
	}
	return fmt.Sprintf("%s:%d", r.Kind, r.ID)
}

// Table is the value of a Table var: a Lua table. Keys are bool, float64,
// string, Vector, Angle, Color or Ref; values any netvar value but nil.
type Table map[any]any

// normalize maps the convenient Go forms of a value onto the one form each
// Lua type has here (every number is a float64, []byte stays []byte), and
// rejects a type no codec can carry. nil stays nil.
func normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, float64, string, []byte, Vector, Angle, Color, Ref:
		return v, nil
	case int:
		return float64(x), nil
	case int8:
		return float64(x), nil
	case int16:
		return float64(x), nil
	case int32:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint:
		return float64(x), nil
	case uint8:
		return float64(x), nil
	case uint16:
		return float64(x), nil
	case uint32:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case float32:
		return float64(x), nil
	case Table:
		return normalizeTable(x, 0)
	case map[any]any:
		return normalizeTable(Table(x), 0)
	case map[string]any:
		t := make(Table, len(x))
		for k, e := range x {
			t[k] = e
		}
		return normalizeTable(t, 0)
	case []any:
		t := make(Table, len(x))
		for i, e := range x {
			t[float64(i+1)] = e
		}
		return normalizeTable(t, 0)
	}
	return nil, fmt.Errorf("type %T has no netvar form", v)
}

func normalizeTable(t Table, depth int) (Table, error) {
	if depth >= MaxTableDepth {
		return nil, fmt.Errorf("table nested deeper than %d", MaxTableDepth)
	}
	out := make(Table, len(t))
	for k, e := range t {
		nk, err := normalize(k)
		if err != nil {
			return nil, fmt.Errorf("table key: %w", err)
		}
		switch nk.(type) {
		case nil, []byte, Table:
			return nil, fmt.Errorf("table key of type %T", nk)
		}
		if f, ok := nk.(float64); ok && math.IsNaN(f) {
			return nil, fmt.Errorf("table key NaN")
		}
		var ne any
		if sub, ok := e.(Table); ok {
			ne, err = normalizeTable(sub, depth+1)
		} else {
			ne, err = normalize(e)
		}
		if err != nil {
			return nil, fmt.Errorf("table value: %w", err)
		}
		if ne == nil {
			continue // a nil value is an absent key, as in Lua
		}
		out[nk] = ne
	}
	return out, nil
}

// Equal reports whether two normalized values are the same value: the
// delta guard. Tables and byte strings compare by content.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case []byte:
		y, ok := b.([]byte)
		return ok && string(x) == string(y)
	case Table:
		y, ok := b.(Table)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !Equal(e, f) {
				return false
			}
		}
		return true
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	}
	switch b.(type) {
	case []byte, Table:
		return false
	}
	return a == b
}

// isInteger reports whether f is an integer a double holds exactly.
func isInteger(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= 1<<53
}

// sortedKeys returns t's keys in a canonical order (by type tag, then
// value), so a table always encodes to the same bytes.
func sortedKeys(t Table) []any {
	keys := make([]any, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	return keys
}

func compareKeys(a, b any) int {
	ta, tb := autoTag(a), autoTag(b)
	if ta != tb {
		return int(ta) - int(tb)
	}
	switch x := a.(type) {
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case float64:
		y := b.(float64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case string:
		y := b.(string)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	sa, sb := fmt.Sprint(a), fmt.Sprint(b)
	switch {
	case sa < sb:
		return -1
	case sa > sb:
		return 1
	}
	return 0
}
