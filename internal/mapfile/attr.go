package mapfile

import (
	"encoding/xml"
	"strings"
)

// attrReader reads the attributes of one MTA:SA element. The first bad
// attribute sticks in err and later reads return their defaults, so an
// element decodes as one chain with one failure check.
//
// An attribute written empty (rotX="", as old maps do) counts as absent.
// Names match without regard to case and prefix-less only.
type attrReader struct {
	attrs []xml.Attr
	err   *fieldError
}

func (r *attrReader) get(name string) (string, bool) {
	for i := range r.attrs {
		a := &r.attrs[i]
		if a.Name.Space == "" && strings.EqualFold(a.Name.Local, name) {
			v := strings.TrimSpace(a.Value)
			return v, v != ""
		}
	}
	return "", false
}

func (r *attrReader) str(name string) string {
	v, _ := r.get(name)
	return v
}

func (r *attrReader) check(err *fieldError) {
	if r.err == nil && err != nil {
		r.err = err
	}
}

func (r *attrReader) required(name string) (string, bool) {
	if r.err != nil {
		return "", false
	}
	v, ok := r.get(name)
	if !ok {
		r.err = errField(name, "missing")
	}
	return v, ok
}

func (r *attrReader) float(name string, def float32) float32 {
	if r.err != nil {
		return def
	}
	s, ok := r.get(name)
	if !ok {
		return def
	}
	f, err := parseFloat(name, s)
	if err != nil {
		r.err = err
		return def
	}
	return f
}

func (r *attrReader) int(name string, def int) int {
	if r.err != nil {
		return def
	}
	s, ok := r.get(name)
	if !ok {
		return def
	}
	n, err := parseInt(name, s)
	if err != nil {
		r.err = err
		return def
	}
	return n
}

func (r *attrReader) requiredInt(name string) int {
	s, ok := r.required(name)
	if !ok {
		return 0
	}
	n, err := parseInt(name, s)
	r.check(err)
	return n
}

func (r *attrReader) vec(names *[3]string) Vec3 {
	return Vec3{r.float(names[0], 0), r.float(names[1], 0), r.float(names[2], 0)}
}

// place reads posX/Y/Z, interior and dimension and checks them, with maxXY
// for |x| and |y|.
func (r *attrReader) place(maxXY float32) Place {
	p := Place{Pos: r.vec(&posNames), Interior: r.int("interior", 0), World: r.int("dimension", 0)}
	if r.err == nil {
		r.check(checkPos(&posNames, p.Pos, maxXY))
		r.check(checkRange("interior", p.Interior, 0, MaxInterior))
		r.check(checkRange("dimension", p.World, AllWorlds, MaxWorld))
	}
	return p
}

func (r *attrReader) bool(name string, def bool) bool {
	if r.err != nil {
		return def
	}
	s, ok := r.get(name)
	if !ok {
		return def
	}
	switch strings.ToLower(s) {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	r.err = errField(name, "%q is not true or false", s)
	return def
}

func (r *attrReader) color(name string, def Color) Color {
	if r.err != nil {
		return def
	}
	s, ok := r.get(name)
	if !ok {
		return def
	}
	c, err := parseColor(name, s)
	if err != nil {
		r.err = err
		return def
	}
	return c
}

var (
	posNames = [3]string{"posX", "posY", "posZ"}
	rotNames = [3]string{"rotX", "rotY", "rotZ"}
)

// parseColor reads "#RRGGBB", "#RRGGBBAA" or "r,g,b[,a]" (decimal 0..255);
// a missing alpha is 255.
func parseColor(field, s string) (Color, *fieldError) {
	if strings.HasPrefix(s, "#") {
		h := s[1:]
		if len(h) != 6 && len(h) != 8 {
			return Color{}, errField(field, "%q is not #RRGGBB or #RRGGBBAA", s)
		}
		var b [4]byte
		b[3] = 255
		for i := 0; i < len(h); i += 2 {
			hi, ok1 := unhex(h[i])
			lo, ok2 := unhex(h[i+1])
			if !ok1 || !ok2 {
				return Color{}, errField(field, "%q is not #RRGGBB or #RRGGBBAA", s)
			}
			b[i/2] = hi<<4 | lo
		}
		return Color{b[0], b[1], b[2], b[3]}, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 && len(parts) != 4 {
		return Color{}, errField(field, "%q is not #RRGGBB[AA] or r,g,b[,a]", s)
	}
	b := [4]byte{3: 255}
	for i, p := range parts {
		n, err := parseInt(field, strings.TrimSpace(p))
		if err != nil || n < 0 || n > 255 {
			return Color{}, errField(field, "%q: component %d is not 0..255", s, i+1)
		}
		b[i] = byte(n)
	}
	return Color{b[0], b[1], b[2], b[3]}, nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// intList reads a comma-separated list of integers in lo..hi.
func (r *attrReader) intList(name string, lo, hi int) []int {
	if r.err != nil {
		return nil
	}
	s, ok := r.get(name)
	if !ok {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make([]int, 0, len(parts))
	for _, p := range parts {
		n, err := parseInt(name, strings.TrimSpace(p))
		if err == nil {
			err = checkRange(name, n, lo, hi)
		}
		if err != nil {
			r.err = err
			return nil
		}
		out = append(out, n)
	}
	return out
}
