package mapfile

import (
	"bytes"
	"fmt"
	"strconv"
)

// sampCall is one SA-MP function the loader reads: its argument names (for
// problems), and how many arguments it takes.
type sampCall struct {
	name     string
	args     []string
	min, max int
}

var sampCalls = []sampCall{
	{"CreateObject", []string{"modelid", "x", "y", "z", "rx", "ry", "rz", "drawdistance"}, 7, 8},
	{"CreateDynamicObject", []string{"modelid", "x", "y", "z", "rx", "ry", "rz", "worldid", "interiorid",
		"playerid", "streamdistance", "drawdistance", "areaid", "priority"}, 7, 14},
	{"AddStaticPickup", []string{"model", "type", "x", "y", "z", "virtualworld"}, 5, 6},
	{"CreatePickup", []string{"model", "type", "x", "y", "z", "virtualworld"}, 5, 6},
	{"RemoveBuildingForPlayer", []string{"playerid", "modelid", "x", "y", "z", "radius"}, 6, 6},
}

// ParseSAMP reads SA-MP script lines: every call of CreateObject,
// CreateDynamicObject, AddStaticPickup, CreatePickup and
// RemoveBuildingForPlayer, wherever it stands on a line (after "new o =",
// inside a function). Everything else (comments, strings, other code,
// declarations of these functions) is ignored. The arguments read must be
// numeric literals (ints, floats, negative); anything else, like an
// expression or a named constant, is a Problem for that line. The playerid
// of RemoveBuildingForPlayer and the streamer's playerid, areaid and
// priority are not read. A call must close on the line it opens.
func ParseSAMP(data []byte, o Options) *Map {
	m := &Map{Format: FormatSAMP}
	s := sampScanner{o: o, m: m}
	total := int64(len(data))
	step := max(total/progressSteps, 1)
	var next, done int64
	data = trimBOM(data)
	for n := 1; len(data) > 0; n++ {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		done += int64(len(line) + 1)
		data = rest
		s.line(n, line)
		if o.Progress != nil && done >= next {
			o.Progress(min(done, total), total)
			next = done + step
		}
	}
	if o.Progress != nil {
		o.Progress(total, total)
	}
	return m
}

type sampScanner struct {
	o       Options
	m       *Map
	comment bool     // inside a /* */ comment
	args    [][]byte // reused
}

func (s *sampScanner) problem(line int, call, field, rule string) {
	s.m.Problems = append(s.m.Problems, Problem{File: s.o.Name, Line: line, Element: call, Field: field, Rule: rule})
}

// line scans one line for calls, skipping comments and strings.
func (s *sampScanner) line(n int, b []byte) {
	var prev []byte // the identifier before the current one
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case s.comment:
			end := bytes.Index(b[i:], []byte("*/"))
			if end < 0 {
				return
			}
			s.comment = false
			i += end + 2
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			return
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			s.comment = true
			i += 2
		case c == '"' || c == '\'':
			i = skipString(b, i)
		case isIdentStart(c):
			j := i
			for j < len(b) && isIdent(b[j]) {
				j++
			}
			id := b[i:j]
			i = j
			call := findCall(id)
			if call == nil || isDeclaration(prev) {
				prev = id
				continue
			}
			prev = id
			k := i
			for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
				k++
			}
			if k >= len(b) || b[k] != '(' {
				continue // the name, not a call
			}
			end, ok := s.split(b, k)
			if !ok {
				s.problem(n, call.name, "", "no closing parenthesis on this line; multi-line calls are not read")
				return
			}
			s.call(n, call)
			i = end
		default:
			if c != ' ' && c != '\t' {
				prev = nil
			}
			i++
		}
	}
}

// split cuts the arguments of the call whose '(' is at b[open] into s.args
// at top-level commas, and returns the index after the ')'.
func (s *sampScanner) split(b []byte, open int) (int, bool) {
	s.args = s.args[:0]
	depth, start := 0, open+1
	for i := open + 1; i < len(b); i++ {
		switch b[i] {
		case '"', '\'':
			i = skipString(b, i) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
				continue
			}
			if b[i] != ')' {
				return 0, false
			}
			if a := bytes.TrimSpace(b[start:i]); len(a) > 0 || len(s.args) > 0 {
				s.args = append(s.args, a)
			}
			return i + 1, true
		case ',':
			if depth == 0 {
				s.args = append(s.args, bytes.TrimSpace(b[start:i]))
				start = i + 1
			}
		}
	}
	return 0, false
}

// call decodes the arguments in s.args.
func (s *sampScanner) call(n int, c *sampCall) {
	if len(s.args) < c.min || len(s.args) > c.max {
		want := strconv.Itoa(c.min)
		if c.max != c.min {
			want += ".." + strconv.Itoa(c.max)
		}
		s.problem(n, c.name, "", fmt.Sprintf("%d arguments, want %s", len(s.args), want))
		return
	}
	a := argReader{call: c, args: s.args}
	var err *fieldError
	switch c.name {
	case "CreateObject", "CreateDynamicObject":
		var o Object
		if o, err = a.object(n); err == nil {
			s.m.Objects = append(s.m.Objects, o)
		}
	case "AddStaticPickup", "CreatePickup":
		var p Pickup
		if p, err = a.pickup(n); err == nil {
			s.m.Pickups = append(s.m.Pickups, p)
		}
	case "RemoveBuildingForPlayer":
		var r Removal
		if r, err = a.removal(n); err == nil {
			s.m.Removals = append(s.m.Removals, r)
		}
	}
	if err != nil {
		s.problem(n, c.name, err.field, err.rule)
	}
}

func findCall(id []byte) *sampCall {
	for i := range sampCalls {
		if string(id) == sampCalls[i].name {
			return &sampCalls[i]
		}
	}
	return nil
}

// isDeclaration reports whether the identifier before a function name makes
// the line a declaration of it, not a call.
func isDeclaration(prev []byte) bool {
	switch string(prev) {
	case "native", "forward", "stock", "public", "static":
		return true
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '@' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// skipString returns the index after the string or character literal that
// starts at b[i], or len(b) when it does not end on the line.
func skipString(b []byte, i int) int {
	q := b[i]
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(b)
}
