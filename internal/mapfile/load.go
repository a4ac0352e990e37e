package mapfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// progressSteps is how many progress reports a load makes at most, besides
// the final one.
const progressSteps = 100

// Options tune a load. The zero value is ready to use.
type Options struct {
	// Name is the file name that problems and errors carry.
	Name string
	// Progress, when set, is called as the load advances with the bytes
	// read so far and the total, at most progressSteps+2 times, the last
	// time with done = total. It runs on the loading goroutine.
	Progress func(done, total int64)
}

// Load reads the file at path and parses it with Parse; Options.Name
// defaults to the file's base name.
func Load(path string, o Options) (*Map, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if o.Name == "" {
		o.Name = filepath.Base(path)
	}
	return Parse(data, o)
}

// Parse reads a map in either format, chosen by the content: data whose
// first character (after a BOM and white space) is '<' is MTA:SA XML,
// UTF-16 data too; anything else is read as SA-MP script lines and must
// hold at least one map call.
func Parse(data []byte, o Options) (*Map, error) {
	if ok, _, _ := isUTF16(data); ok {
		return ParseMTA(data, o)
	}
	if t := bytes.TrimLeft(trimBOM(data), " \t\r\n"); len(t) > 0 && t[0] == '<' {
		return ParseMTA(data, o)
	}
	m := ParseSAMP(data, o)
	if len(m.Objects)+len(m.Pickups)+len(m.Removals) == 0 && len(m.Problems) == 0 {
		return nil, o.errorf("not a map: neither MTA:SA XML nor SA-MP map calls")
	}
	return m, nil
}

// errorf returns an error prefixed with the file's name when there is one.
func (o *Options) errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if o.Name == "" {
		return err
	}
	return fmt.Errorf("%s: %w", o.Name, err)
}
