package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

func validPlayerShow() Packet {
	return &PlayerShow{EventID: 12, PlayerID: 7, Active: 1, Skin: 0, Color: 0x2BA32B, PlayerName: PlayerName{'C', 'a', 'r', 'l', '_', 'J', 'o', 'h', 'n', 's', 'o', 'n'}}
}

func TestPlayerShowExample(t *testing.T) {
	checkExample(t, "player_show.bin", validPlayerShow())
	checkTruncated(t, validPlayerShow().Append(nil), func() Packet { return new(PlayerShow) })
}

func TestPlayerShowRules(t *testing.T) {
	cases := []ruleCase{
		{"player 0", func(q Packet) { p := q.(*PlayerShow); p.PlayerID = 0 }, ""},
		{"player 999", func(q Packet) { p := q.(*PlayerShow); p.PlayerID = 999 }, ""},
		{"player 1000", func(q Packet) { p := q.(*PlayerShow); p.PlayerID = 1000 }, "player_id"},
		{"active 2", func(q Packet) { p := q.(*PlayerShow); p.Active = 2 }, "active"},
		{"hide ignores the rest", func(q Packet) {
			p := q.(*PlayerShow)
			p.Active, p.Skin, p.Color, p.PlayerName = 0, 999, 0xFFFFFFFF, PlayerName{0xFF}
		}, ""},
		{"hide of player 1000", func(q Packet) { p := q.(*PlayerShow); p.Active, p.PlayerID = 0, 1000 }, "player_id"},
		{"skin 74", func(q Packet) { p := q.(*PlayerShow); p.Skin = 74 }, "skin"},
		{"skin 311", func(q Packet) { p := q.(*PlayerShow); p.Skin = 311 }, ""},
		{"skin 312", func(q Packet) { p := q.(*PlayerShow); p.Skin = 312 }, "skin"},
		{"color 0xFFFFFF", func(q Packet) { p := q.(*PlayerShow); p.Color = 0xFFFFFF }, ""},
		{"color 0x1000000", func(q Packet) { p := q.(*PlayerShow); p.Color = 0x1000000 }, "color"},
		{"name 3 bytes", func(q Packet) { p := q.(*PlayerShow); p.PlayerName = PlayerName{'a', 'b', 'c'} }, ""},
		{"name 2 bytes", func(q Packet) { p := q.(*PlayerShow); p.PlayerName = PlayerName{'a', 'b'} }, "name"},
		{"name empty", func(q Packet) { p := q.(*PlayerShow); p.PlayerName = PlayerName{} }, "name"},
		{"name 24 bytes", func(q Packet) { p := q.(*PlayerShow); copy(p.PlayerName[:], "[GSF]Sweet.$@=(x)_abcdef") }, ""},
		{"name with space", func(q Packet) { p := q.(*PlayerShow); p.PlayerName[3] = ' ' }, "name"},
		{"name with UTF-8", func(q Packet) { p := q.(*PlayerShow); p.PlayerName[3] = 0xC3 }, "name"},
		{"name byte after NUL", func(q Packet) { p := q.(*PlayerShow); p.PlayerName[20] = 'x' }, "name"},
	}
	checkRules(t, "server", validPlayerShow, send, cases)
	checkRules(t, "client", validPlayerShow, recv, cases)
}

func FuzzPlayerShow(f *testing.F) {
	f.Add(validPlayerShow().Append(nil))
	f.Add(make([]byte, validPlayerShow().Len()))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(PlayerShow) }) })
}

func BenchmarkPlayerShow(b *testing.B) {
	benchCodec(b, validPlayerShow(), func() Packet { return new(PlayerShow) })
}

func TestPlayerNameJSON(t *testing.T) {
	p := validPlayerShow().(*PlayerShow)
	j, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j), `"name":"Carl_Johnson"`) {
		t.Errorf("JSON %s does not hold the name as a string", j)
	}
	var q PlayerShow
	if err := json.Unmarshal(j, &q); err != nil {
		t.Fatal(err)
	}
	if q != *p {
		t.Errorf("JSON round trip: got %+v, want %+v", q, *p)
	}
	if err := json.Unmarshal([]byte(`{"name":"`+strings.Repeat("a", 25)+`"}`), &q); err == nil {
		t.Errorf("a 25-byte name unmarshaled")
	}
}
