package mapfile

import (
	"fmt"
	"strings"
)

// Problem is one element or line the loader skipped, or one oddity it read
// past (a wrong encoding declaration). It names where and which rule.
type Problem struct {
	File    string // the name given in Options.Name
	Line    int    // 1-based; 0 when the whole file is meant
	Element string // the tag or call: "object", "CreateObject"
	Field   string // the attribute or argument: "model", "posX", "arg 3 (y)"; "" for the whole element
	Rule    string // what is wrong, with the value found
	// Note is true when nothing was skipped: the loader read past an
	// oddity (a wrong encoding declaration, a stray end tag).
	Note bool
}

// Error formats the problem as "file:line: element field: rule".
func (p Problem) Error() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		b.WriteByte(':')
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:", p.Line)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(p.Element)
	if p.Field != "" {
		b.WriteByte(' ')
		b.WriteString(p.Field)
	}
	b.WriteString(": ")
	b.WriteString(p.Rule)
	return b.String()
}

// fieldError is a rule broken by one field while decoding an element. The
// parsers turn it into a Problem with the file and line.
type fieldError struct {
	field, rule string
}

func (e *fieldError) Error() string { return e.field + ": " + e.rule }

func errField(field, format string, args ...any) *fieldError {
	return &fieldError{field, fmt.Sprintf(format, args...)}
}
