package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"dlmp/internal/wire"
)

// tool runs "dlmp args..." in process with stdin and returns the exit status,
// stdout and stderr.
func tool(t *testing.T, stdin []byte, args ...string) (int, []byte, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &stdout, &stderr)
	return code, stdout.Bytes(), stderr.String()
}

// examples returns the paths of every example packet in docs/examples.
func examples(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "docs", "examples", "*.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no example in docs/examples")
	}
	return paths
}

// members returns a JSON object's keys in order and its values, numbers kept
// as their literal text.
func members(t *testing.T, js []byte) ([]string, map[string]any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object (%v): %s", err, js)
	}
	values := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%v: %s", err, js)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%v: %s", err, js)
		}
		keys = append(keys, tok.(string))
		values[tok.(string)] = v
	}
	if _, err := dec.Token(); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	return keys, values
}

// TestDecodeExamples: every example decodes to one JSON object, and that
// JSON encodes back to the identical bytes, which decode to the same JSON.
func TestDecodeExamples(t *testing.T) {
	for _, path := range examples(t) {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		code, js, stderr := tool(t, nil, "decode", path)
		if code != 0 || stderr != "" {
			t.Errorf("decode %s: exit %d, stderr %q; want 0 and nothing", path, code, stderr)
			continue
		}
		if !json.Valid(js) || !bytes.HasSuffix(js, []byte("}\n")) {
			t.Errorf("decode %s: not one JSON object and a newline: %q", path, js)
			continue
		}
		keys, values := members(t, js)
		p := wire.New(want[0])
		if len(keys) < 2 || keys[0] != "packet" || keys[1] != "packet_id" {
			t.Errorf("decode %s: keys %v, want packet and packet_id first", path, keys)
		} else if values["packet"] != p.Name() || values["packet_id"] != json.Number(strconv.Itoa(int(want[0]))) {
			t.Errorf("decode %s: packet %v, packet_id %v; want %s, %d", path, values["packet"], values["packet_id"], p.Name(), want[0])
		}
		code, got, stderr := tool(t, js, "encode")
		if code != 0 || stderr != "" || !bytes.Equal(got, want) {
			t.Errorf("encode of decode %s: exit %d, stderr %q, bytes\n%x\nwant\n%x", path, code, stderr, got, want)
			continue
		}
		code, again, _ := tool(t, got, "decode")
		if code != 0 || !bytes.Equal(again, js) {
			t.Errorf("decode of re-encoded %s: exit %d\n%s\nwant\n%s", path, code, again, js)
		}
	}
}

// TestEveryPacketHasExample: each registered packet has an example file, so
// TestDecodeExamples covers it.
func TestEveryPacketHasExample(t *testing.T) {
	have := map[byte]bool{}
	for _, path := range examples(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 0 {
			have[b[0]] = true
		}
	}
	for _, id := range wire.IDs() {
		if !have[id] {
			t.Errorf("%s (0x%02X) has no example in docs/examples", wire.New(id).Name(), id)
		}
	}
}

// checkRejected asserts exit status 1, nothing on stdout and a reason on
// stderr holding every part of want.
func checkRejected(t *testing.T, name string, code int, stdout []byte, stderr string, want ...string) {
	t.Helper()
	if code != 1 || len(stdout) != 0 {
		t.Errorf("%s: exit %d, stdout %q; want 1 and nothing", name, code, stdout)
	}
	if !strings.HasPrefix(stderr, "dlmp ") || !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("%s: stderr %q, want one line of reason", name, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr %q lacks %q", name, stderr, w)
		}
	}
}

// TestDecodeRejects: an empty input, every strict prefix, a trailing byte
// and an unknown id are rejected, for every example and every registered
// packet's zero encoding.
func TestDecodeRejects(t *testing.T) {
	inputs := map[string][]byte{}
	for _, path := range examples(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(path)] = b
	}
	for _, id := range wire.IDs() {
		p := wire.New(id)
		inputs[p.Name()+" zero"] = p.Append(nil)
	}
	free := unregisteredID(t)
	code, out, stderr := tool(t, nil, "decode")
	checkRejected(t, "empty input", code, out, stderr, "empty")
	for name, full := range inputs {
		p := wire.New(full[0])
		for n := 1; n < len(full); n++ {
			code, out, stderr := tool(t, full[:n], "decode")
			checkRejected(t, name+" prefix "+strconv.Itoa(n), code, out, stderr, p.Name())
		}
		code, out, stderr := tool(t, append(slices.Clone(full), 0), "decode")
		checkRejected(t, name+" trailing byte", code, out, stderr, p.Name(), "trailing")
		unknown := append([]byte{free}, full[1:]...)
		code, out, stderr = tool(t, unknown, "decode")
		checkRejected(t, name+" unknown id", code, out, stderr, "unknown packet id")
	}
}

func TestDecodeRejectsInvalid(t *testing.T) {
	bad := (&wire.SetTime{EventID: 1, Hours: 24}).Append(nil)
	code, out, stderr := tool(t, bad, "decode")
	checkRejected(t, "SetTime hours 24", code, out, stderr, "SetTime.hours", "24")
}

// TestDecodeHide: for every example of a packet with an active field, the
// same packet turned into a hide whose float fields hold NaN, +Inf and -Inf
// decodes to valid JSON with those as strings, and encoding that JSON gives
// the same bytes unless the sender refuses it.
func TestDecodeHide(t *testing.T) {
	hides := 0
	for _, path := range examples(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p := wire.New(b[0])
		if _, err := p.Parse(b); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		v := reflect.ValueOf(p).Elem()
		active, ok := fieldByTag(v, "active")
		if !ok || !active.CanUint() {
			continue
		}
		hides++
		active.SetUint(0)
		floats := setFloats(v, []float64{math.NaN(), math.Inf(1), math.Inf(-1)}, 0)
		in := p.Append(nil)
		code, js, stderr := tool(t, in, "decode")
		if code != 0 || stderr != "" || !json.Valid(js) {
			t.Errorf("%s hide: exit %d, stderr %q, stdout %s; want valid JSON", p.Name(), code, stderr, js)
			continue
		}
		for i, s := range []string{`"NaN"`, `"Inf"`, `"-Inf"`} {
			if i < floats && !bytes.Contains(js, []byte(s)) {
				t.Errorf("%s hide: %s lacks %s", p.Name(), js, s)
			}
		}
		code, got, stderr := tool(t, js, "encode")
		switch {
		case code == 0 && !bytes.Equal(got, in):
			t.Errorf("%s hide: encode gives %x, want %x", p.Name(), got, in)
		case code != 0:
			checkRejected(t, p.Name()+" hide encode", code, got, stderr, p.Name())
		}
	}
	t.Logf("%d examples are of packets with an active field", hides)
}

// fieldByTag returns the field of struct v whose json tag is tag.
func fieldByTag(v reflect.Value, tag string) (reflect.Value, bool) {
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == tag && f.IsExported() {
			return v.Field(i), true
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if fv, ok := fieldByTag(v.Field(i), tag); ok {
				return fv, true
			}
		}
	}
	return reflect.Value{}, false
}

// setFloats sets every float in v to garbage[i%len] in turn; it returns how
// many it set.
func setFloats(v reflect.Value, garbage []float64, n int) int {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		v.SetFloat(garbage[n%len(garbage)])
		return n + 1
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() || f.Anonymous {
				n = setFloats(v.Field(i), garbage, n)
			}
		}
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			n = setFloats(v.Index(i), garbage, n)
		}
	}
	return n
}

func TestToolUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.bin")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"decode", "a", "b"}, 2, "usage: dlmp decode [FILE]"},
		{[]string{"encode", "a", "b"}, 2, "usage: dlmp encode [FILE]"},
		{[]string{"decode", "-x"}, 2, "unknown flag -x"},
		{[]string{"decode", missing}, 1, "nope.bin"},
		{[]string{"decode", "-h"}, 0, "usage: dlmp decode [FILE]"},
		{[]string{"encode", "--help"}, 0, "usage: dlmp encode [FILE]"},
		{[]string{"encode", missing}, 1, "nope.bin"},
	}
	for _, c := range cases {
		code, out, stderr := tool(t, nil, c.args...)
		if code != c.code || len(out) != 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, nothing, %q", c.args, code, out, stderr, c.code, c.want)
		}
	}
	in := (&wire.SetTime{Hours: 1}).Append(nil)
	if code, out, _ := tool(t, in, "decode", "-"); code != 0 || !bytes.Contains(out, []byte(`"hours": 1`)) {
		t.Errorf(`decode "-": exit %d, %s; want stdin decoded`, code, out)
	}
}

// unregisteredID returns a packet id no packet uses.
func unregisteredID(t *testing.T) byte {
	t.Helper()
	for id := 255; id >= 0; id-- {
		if wire.New(byte(id)) == nil {
			return byte(id)
		}
	}
	t.Fatal("every packet id is registered")
	return 0
}
