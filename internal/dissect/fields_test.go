package dissect

import (
	"bufio"
	"bytes"
	"encoding"
	"reflect"
	"strings"
	"testing"

	"dlmp/internal/wire"
)

// TestFieldTypes checks the dissector's field registrations (tshark -G
// fields) against the packet structs of internal/wire: every field of every
// codec is registered under dlmp.<packet>.<json tag> with the type its Go
// type calls for, and the dissector registers nothing else.
func TestFieldTypes(t *testing.T) {
	tshark, _ := tools(t)
	out := run(t, tshark, "-G", "fields", "-X", "lua_script:"+script)
	got := map[string]string{} // abbrev → FT_ type
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 4 && cols[0] == "F" && strings.HasPrefix(cols[2], "dlmp.") {
			got[cols[2]] = cols[3]
		}
	}
	want := map[string]string{
		"dlmp.packet": "FT_STRING", "dlmp.packet_id": "FT_UINT8", "dlmp.lane": "FT_STRING",
		"dlmp.length": "FT_UINT16", "dlmp.undelimited": "FT_BYTES", "dlmp.message": "FT_BYTES",
		"dlmp.message_frames": "FT_STRING",
		// expert infos
		"dlmp.unknown_id": "FT_NONE", "dlmp.truncated": "FT_NONE", "dlmp.oversize": "FT_NONE",
		"dlmp.message_too_large": "FT_NONE",
	}
	for _, id := range wire.IDs() {
		p := wire.New(id)
		prefix := "dlmp." + snake(p.Name()) + "."
		for _, f := range reflect.VisibleFields(reflect.TypeOf(p).Elem()) {
			tag := strings.Split(f.Tag.Get("json"), ",")[0]
			if !f.IsExported() || f.Anonymous || tag == "" || tag == "-" {
				continue
			}
			want[prefix+tag] = fieldType(tag, f.Type)
		}
		// The wire fields packetjson leaves out.
		switch id {
		case wire.IDClientHello:
			want[prefix+"padding"] = "FT_BYTES"
		case wire.IDClientChat, wire.IDChatMessage:
			want[prefix+"len"] = "FT_UINT8"
		}
		if _, ok := want[prefix+"payload"]; ok {
			want[prefix+"len"] = "FT_UINT16"
		}
	}
	for abbrev, w := range want {
		if g, ok := got[abbrev]; !ok {
			t.Errorf("%s (%s) is not registered", abbrev, w)
		} else if g != w {
			t.Errorf("%s is %s, want %s", abbrev, g, w)
		}
	}
	for abbrev, g := range got {
		if _, ok := want[abbrev]; !ok {
			t.Errorf("%s (%s) is registered but no codec has it", abbrev, g)
		}
	}
	if len(got) < 2*len(wire.IDs()) {
		t.Errorf("tshark -G fields lists %d dlmp fields: the script did not load", len(got))
	}
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// fieldType is the Wireshark type of a codec field.
func fieldType(tag string, t reflect.Type) string {
	if t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return "FT_STRING"
	}
	switch t.Kind() {
	case reflect.Uint8:
		return "FT_UINT8"
	case reflect.Uint16:
		return "FT_UINT16"
	case reflect.Uint32:
		return "FT_UINT32"
	case reflect.Uint64:
		return "FT_UINT64"
	case reflect.Int32:
		return "FT_INT32"
	case reflect.Float32:
		return "FT_FLOAT"
	case reflect.Slice:
		return "FT_BYTES"
	case reflect.Array:
		if bytesFields[tag] {
			return "FT_BYTES"
		}
		return "FT_STRING"
	}
	return "unsupported Go type " + t.String()
}
