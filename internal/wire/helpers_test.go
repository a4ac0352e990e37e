package wire

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the example files in docs/examples")

// examplePath is where a packet's example file lives.
func examplePath(name string) string { return filepath.Join("..", "..", "docs", "examples", name) }

// checkExample compares p's encoding with docs/examples/<file>, rewriting it
// with -update, then decodes the file with Unmarshal and compares the result.
func checkExample(t *testing.T, file string, p Packet) {
	t.Helper()
	got := p.Append(nil)
	if len(got) != p.Len() {
		t.Fatalf("%s: Append wrote %d bytes, Len() = %d", p.Name(), len(got), p.Len())
	}
	path := examplePath(file)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/wire -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s encodes to\n%x\nexample %s holds\n%x", p.Name(), got, file, want)
	}
	dec, err := Unmarshal(want)
	if err != nil {
		t.Fatalf("Unmarshal(%s): %v", file, err)
	}
	if re := dec.Append(nil); !bytes.Equal(re, want) {
		t.Fatalf("%s: decode then encode gives\n%x\nwant\n%x", file, re, want)
	}
}

// checkTruncated asserts that every strict prefix of a valid encoding fails
// to parse with ErrTruncated (or ErrTruncated/ErrMismatch for the empty one).
func checkTruncated(t *testing.T, full []byte, mk func() Packet) {
	t.Helper()
	for n := 0; n < len(full); n++ {
		_, err := mk().Parse(full[:n])
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("Parse of %d of %d bytes: err = %v, want ErrTruncated", n, len(full), err)
		}
		if _, err := Unmarshal(full[:n]); err == nil {
			t.Errorf("Unmarshal of %d of %d bytes succeeded", n, len(full))
		}
	}
	if _, err := Unmarshal(append(bytes.Clone(full), 0)); !errors.Is(err, ErrTrailing) {
		t.Errorf("Unmarshal with a trailing byte: err = %v, want ErrTrailing", err)
	}
	other := bytes.Clone(full)
	other[0] ^= 0xFF
	if _, err := mk().Parse(other); !errors.Is(err, ErrMismatch) {
		t.Errorf("Parse with packet id 0x%02X: err = %v, want ErrMismatch", other[0], err)
	}
}

// ruleCase is one boundary of one rule: a change to a valid packet, and the
// field an error must name ("" when the change must be accepted).
type ruleCase struct {
	name   string
	change func(p Packet)
	field  string // empty: accepted
}

// checkRules applies each case to a fresh valid packet and runs check on it
// (CheckSend or CheckRecv through the method value getter).
func checkRules(t *testing.T, side string, valid func() Packet, check func(Packet) error, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		p := valid()
		c.change(p)
		err := check(p)
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s %s: %v, want accepted", side, c.name, err)
		case c.field != "" && err == nil:
			t.Errorf("%s %s: accepted, want rejected naming %q", side, c.name, c.field)
		case c.field != "":
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
				t.Errorf("%s %s: err = %v (%T), want *Error with ErrInvalid", side, c.name, err, err)
			} else if e.Field != c.field {
				t.Errorf("%s %s: error names field %q, want %q (%v)", side, c.name, e.Field, c.field, err)
			} else if e.Packet != p.Name() || !strings.Contains(err.Error(), c.field) {
				t.Errorf("%s %s: error %q does not name packet %s and field %s", side, c.name, err, p.Name(), c.field)
			}
		}
		// Whatever the checks say, bytes round trip exactly.
		enc := p.Append(nil)
		q := valid()
		if n, err := q.Parse(enc); err != nil || n != len(enc) {
			t.Errorf("%s %s: Parse of own encoding: n=%d err=%v", side, c.name, n, err)
		} else if re := q.Append(nil); !bytes.Equal(re, enc) {
			t.Errorf("%s %s: round trip changed bytes\n%x\n%x", side, c.name, enc, re)
		}
	}
}

func send(p Packet) error { return p.CheckSend() }
func recv(p Packet) error { return p.CheckRecv() }

// fuzzRoundTrip is the body of every decoder's fuzz target: Parse never
// panics, and whatever parses re-encodes to the bytes it consumed.
func fuzzRoundTrip(t *testing.T, data []byte, mk func() Packet) {
	p := mk()
	n, err := p.Parse(data)
	if err != nil {
		if n != 0 {
			t.Fatalf("Parse failed but consumed %d bytes", n)
		}
		return
	}
	if n != p.Len() {
		t.Fatalf("Parse consumed %d bytes, Len() = %d", n, p.Len())
	}
	_ = p.CheckRecv() // must not panic
	_ = p.CheckSend()
	if re := p.Append(nil); !bytes.Equal(re, data[:n]) {
		t.Fatalf("re-encode differs\n got %x\nwant %x", re, data[:n])
	}
}

// benchCodec measures one encode plus one decode of p.
func benchCodec(b *testing.B, p Packet, mk func() Packet) {
	b.Helper()
	buf := make([]byte, 0, p.Len())
	q := mk()
	b.ReportAllocs()
	b.SetBytes(int64(p.Len()))
	for b.Loop() {
		buf = p.Append(buf[:0])
		if _, err := q.Parse(buf); err != nil {
			b.Fatal(err)
		}
		if err := q.CheckRecv(); err != nil {
			b.Fatal(err)
		}
	}
}
