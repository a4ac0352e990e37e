package mapfile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ParseMTA reads an MTA:SA .map file. It stops with an error only when the
// data holds no root element (it is not XML at all) or the root is not
// <map>; a syntax error later is a Problem, and what came before it loads.
//
// Real files break the rules, and the bytes decide, not the declaration
// (decision 0045): a UTF-8 BOM is skipped; UTF-16 bytes (with a BOM, or
// with NULs between ASCII) are converted; bytes that are not UTF-8 are read
// as Latin-1; an encoding declaration that disagrees ("utf-16" over UTF-8
// bytes) is read past with a note. The decoder is not strict: a bare & in a
// value, an unquoted value and undeclared prefixes (edf:) are accepted.
func ParseMTA(data []byte, o Options) (*Map, error) {
	m := &Map{Format: FormatMTA}
	p := mtaParser{o: o, m: m}
	data = p.normalize(data)
	p.total = int64(len(data)) // progress counts the bytes decoded, after conversion
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.CharsetReader = p.charset
	if err := p.run(d); err != nil {
		return nil, err
	}
	return m, nil
}

type mtaParser struct {
	o         Options
	m         *Map
	total     int64
	converted bool // the bytes were converted to UTF-8 before decoding

	// open elements: tag, line, and the index in m.Elements of the
	// element (-1 for a known or the root element)
	stack []open
	// attrs is reused across elements.
	attrs attrReader
}

// outside marks the open elements after the end of the root.
const outside = -2

type open struct {
	tag     string
	line    int
	element int
}

// note reports an oddity read past; skip reports something skipped.
func (p *mtaParser) note(line int, element, rule string) {
	p.m.Problems = append(p.m.Problems, Problem{File: p.o.Name, Line: line, Element: element, Rule: rule, Note: true})
}

func (p *mtaParser) skip(line int, element, rule string) {
	p.m.Problems = append(p.m.Problems, Problem{File: p.o.Name, Line: line, Element: element, Rule: rule})
}

func (p *mtaParser) problem(line int, element string, err *fieldError) {
	p.m.Problems = append(p.m.Problems, Problem{File: p.o.Name, Line: line, Element: element, Field: err.field, Rule: err.rule})
}

// normalize converts UTF-16 and non-UTF-8 bytes to UTF-8.
func (p *mtaParser) normalize(data []byte) []byte {
	if out, ok := fromUTF16(data); ok {
		p.converted = true
		p.note(1, "file", "UTF-16 bytes, converted to UTF-8")
		return out
	}
	if out, ok := fromLatin1(data); ok {
		p.converted = true
		p.note(1, "file", "bytes are not UTF-8, read as Latin-1")
		return out
	}
	return data
}

// charset is called for an encoding declaration other than UTF-8: the
// bytes are UTF-8 by now, whatever the label says.
func (p *mtaParser) charset(label string, r io.Reader) (io.Reader, error) {
	l := strings.ToLower(label)
	if p.converted && (strings.HasPrefix(l, "utf-16") || strings.HasPrefix(l, "iso-8859") || l == "windows-1252" || l == "latin1") {
		return r, nil
	}
	p.note(1, "xml", fmt.Sprintf("declares encoding %q but its bytes are UTF-8, read as UTF-8", label))
	return r, nil
}

func (p *mtaParser) run(d *xml.Decoder) error {
	root := false
	var next int64 // the offset of the next progress report
	step := max(p.total/progressSteps, 1)
	line := 1
	for {
		line, _ = d.InputPos()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			msg := err.Error()
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				msg, line = se.Msg, se.Line
			}
			if !root {
				return p.o.errorf("not an XML map: line %d: %s", line, msg)
			}
			p.skip(line, "xml", "malformed XML: "+msg+"; the rest of the file is skipped")
			p.stack = p.stack[:0]
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if !root {
				if t.Name.Local != "map" {
					return p.o.errorf("not an MTA:SA map: line %d: the root element is <%s>, want <map>", line, qname(t.Name))
				}
				root = true
				for _, a := range t.Attr {
					p.m.Attrs = append(p.m.Attrs, Attr{qname(a.Name), a.Value})
				}
				p.stack = append(p.stack, open{"map", line, -1})
				break
			}
			switch {
			case len(p.stack) == 0:
				p.skip(line, qname(t.Name), "element after the end of <map>, skipped")
				p.stack = append(p.stack, open{qname(t.Name), line, outside})
			case p.stack[0].element == outside:
				p.stack = append(p.stack, open{qname(t.Name), line, outside})
			default:
				p.stack = append(p.stack, open{qname(t.Name), line, p.element(t, line)})
			}
			if p.o.Progress != nil {
				if off := d.InputOffset(); off >= next {
					p.o.Progress(off, p.total)
					next = off + step
				}
			}
		case xml.EndElement:
			p.end(qname(t.Name), line)
		}
	}
	if !root {
		return p.o.errorf("not an XML map: no root element")
	}
	if len(p.stack) > 0 && p.stack[0].element != outside {
		o := p.stack[0]
		p.skip(line, o.tag, fmt.Sprintf("<%s> opened at line %d is never closed", o.tag, o.line))
	}
	if p.o.Progress != nil {
		p.o.Progress(p.total, p.total)
	}
	return nil
}

// end closes the innermost open element of that name; a stray end tag is
// noted and ignored.
func (p *mtaParser) end(tag string, line int) {
	for i := len(p.stack) - 1; i >= 0; i-- {
		if p.stack[i].tag == tag {
			if i != len(p.stack)-1 {
				o := p.stack[len(p.stack)-1]
				p.note(line, o.tag, fmt.Sprintf("<%s> opened at line %d is closed by </%s>", o.tag, o.line, tag))
			}
			p.stack = p.stack[:i]
			return
		}
	}
	p.note(line, tag, fmt.Sprintf("</%s> closes nothing, ignored", tag))
}

// element decodes one element below the root and returns its index in
// m.Elements, or -1 when it is not kept as a generic element.
func (p *mtaParser) element(t xml.StartElement, line int) int {
	r := &p.attrs
	*r = attrReader{attrs: t.Attr}
	m := p.m
	tag := t.Name.Local
	if t.Name.Space != "" {
		tag = ""
	}
	var err *fieldError
	switch tag {
	case "object":
		var o Object
		if o, err = decodeObject(r, line); err == nil {
			m.Objects = append(m.Objects, o)
		}
	case "pickup":
		var v Pickup
		if v, err = decodePickup(r, line); err == nil {
			m.Pickups = append(m.Pickups, v)
		}
	case "marker":
		var v Marker
		if v, err = decodeMarker(r, line); err == nil {
			m.Markers = append(m.Markers, v)
		}
	case "blip":
		var v Blip
		if v, err = decodeBlip(r, line); err == nil {
			m.Blips = append(m.Blips, v)
		}
	case "radararea":
		var v Zone
		if v, err = decodeZone(r, line); err == nil {
			m.Zones = append(m.Zones, v)
		}
	case "vehicle":
		var v Vehicle
		if v, err = decodeVehicle(r, line); err == nil {
			m.Vehicles = append(m.Vehicles, v)
		}
	default:
		e := Element{Line: line, Tag: qname(t.Name), Parent: -1, Attrs: make([]Attr, len(t.Attr))}
		for i, a := range t.Attr {
			e.Attrs[i] = Attr{qname(a.Name), a.Value}
		}
		for i := len(p.stack) - 1; i >= 0; i-- {
			if p.stack[i].element >= 0 {
				e.Parent = p.stack[i].element
				break
			}
		}
		m.Elements = append(m.Elements, e)
		return len(m.Elements) - 1
	}
	if err != nil {
		p.problem(line, tag, err)
	}
	return -1
}

// qname is the name as written, prefix included.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}
