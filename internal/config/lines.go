package config

import (
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// keyLines maps every dotted key of a TOML document to the line it is set on.
// The document already decoded, so parse errors cannot occur here; on one the
// map is simply incomplete and errors carry line 0.
func keyLines(data []byte) map[string]int {
	lines := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
		case unstable.KeyValue:
			full := append(append([]string{}, table...), keyParts(e.Key())...)
			line := 0
			if v := e.Value(); v != nil && v.Raw.Length > 0 {
				line = p.Shape(v.Raw).Start.Line
			}
			lines[strings.Join(full, ".")] = line
		}
	}
	return lines
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}
