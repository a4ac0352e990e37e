package packetjson

import (
	"encoding"
	"reflect"
)

var (
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// isText reports whether a field of type t maps as text through its own
// methods: t (or *t) implements encoding.TextMarshaler and *t implements
// encoding.TextUnmarshaler. A packet's text type with a length and a buffer
// (a chat line, a player name) implements both, and prints as one string
// instead of its parts.
func isText(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return (t.Implements(textMarshaler) || p.Implements(textMarshaler)) && p.Implements(textUnmarshaler)
}

// marshalText calls MarshalText on v, which must be addressable when only
// *v has the method.
func marshalText(v reflect.Value) ([]byte, error) {
	if v.Type().Implements(textMarshaler) {
		return v.Interface().(encoding.TextMarshaler).MarshalText()
	}
	return v.Addr().Interface().(encoding.TextMarshaler).MarshalText()
}

// unmarshalText calls UnmarshalText on addressable v.
func unmarshalText(v reflect.Value, b []byte) error {
	return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText(b)
}
