package mapfile

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

var bomUTF8 = []byte{0xEF, 0xBB, 0xBF}

// fromUTF16 converts UTF-16 bytes to UTF-8: with a BOM of either order, or
// without one when the first character is ASCII next to a NUL. It reports
// false, and returns nothing, when the bytes are not UTF-16.
func fromUTF16(data []byte) ([]byte, bool) {
	ok, big, bom := isUTF16(data)
	if !ok {
		return nil, false
	}
	if bom {
		data = data[2:]
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		lo, hi := data[2*i], data[2*i+1]
		if big {
			lo, hi = hi, lo
		}
		units[i] = uint16(lo) | uint16(hi)<<8
	}
	out := make([]byte, 0, len(units)+len(units)/8)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// fromLatin1 reads bytes that are not valid UTF-8 as Latin-1 and returns
// them as UTF-8; it reports false for valid UTF-8.
func fromLatin1(data []byte) ([]byte, bool) {
	if utf8.Valid(data) {
		return nil, false
	}
	out := make([]byte, 0, len(data)+len(data)/16)
	for _, b := range data {
		out = utf8.AppendRune(out, rune(b))
	}
	return out, true
}

// trimBOM drops a UTF-8 byte order mark.
func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, bomUTF8) }

// isUTF16 reports whether data is UTF-16, big-endian or not, and whether it
// starts with a BOM.
func isUTF16(data []byte) (ok, big, bom bool) {
	if len(data) < 2 {
		return false, false, false
	}
	switch {
	case data[0] == 0xFF && data[1] == 0xFE:
		return true, false, true
	case data[0] == 0xFE && data[1] == 0xFF:
		return true, true, true
	case data[0] != 0 && data[0] < 0x80 && data[1] == 0:
		return true, false, false
	case data[0] == 0 && data[1] != 0 && data[1] < 0x80:
		return true, true, false
	}
	return false, false, false
}
