package wire

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docRow is one row of the packet table of docs/protocol.md.
type docRow struct {
	name, dir, size string
}

// protocolTable reads the packet table of docs/protocol.md.
func protocolTable(t *testing.T) (map[byte]docRow, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| 0x([0-9A-F]{2}) \| (\w+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$`)
	rows := map[byte]docRow{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		id, _ := strconv.ParseUint(m[1], 16, 8)
		if _, dup := rows[byte(id)]; dup {
			t.Errorf("docs/protocol.md lists 0x%s twice", m[1])
		}
		rows[byte(id)] = docRow{m[2], strings.TrimSpace(m[3]), strings.TrimSpace(m[5])}
	}
	return rows, string(b)
}

// TestProtocolDoc checks that every packet this package knows is in the
// packet table of docs/protocol.md with its name, direction and size, has a
// section and an example file.
func TestProtocolDoc(t *testing.T) {
	rows, doc := protocolTable(t)
	if len(rows) < 40 {
		t.Fatalf("docs/protocol.md's packet table has %d rows, want every packet", len(rows))
	}
	for _, id := range IDs() {
		p := New(id)
		r, ok := rows[id]
		if !ok {
			t.Errorf("0x%02X %s is not in the packet table of docs/protocol.md", id, p.Name())
			continue
		}
		if r.name != p.Name() {
			t.Errorf("0x%02X: the table says %s, the codec %s", id, r.name, p.Name())
		}
		if r.dir != p.Dir().String() {
			t.Errorf("%s: the table says %s, the codec %s", p.Name(), r.dir, p.Dir())
		}
		if size, err := strconv.Atoi(r.size); err == nil && size != p.Len() {
			t.Errorf("%s: the table says %d bytes, the codec %d", p.Name(), size, p.Len())
		}
		if !strings.Contains(doc, fmt.Sprintf("%s (0x%02X)", p.Name(), id)) {
			t.Errorf("%s has no section in docs/protocol.md", p.Name())
		}
	}
}
