package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func validClientChat() Packet {
	p := &ClientChat{Token: 0x0123456789ABCDEF, EventID: 3}
	p.Text.Set("/tp grove street — ünïcode")
	return p
}

// text returns a rule change that sets the chat text of p.
func chatText(s string) func(Packet) {
	return func(p Packet) {
		switch p := p.(type) {
		case *ClientChat:
			p.Text.Set(s)
		case *ChatMessage:
			p.Text.Set(s)
		}
	}
}

// chatTextCases are the text rules ClientChat and ChatMessage share.
var chatTextCases = []ruleCase{
	{"len 1", chatText("a"), ""},
	{"len 0", chatText(""), "len"},
	{"len 144", chatText(strings.Repeat("a", 144)), ""},
	{"len 145", chatText(strings.Repeat("a", 145)), "len"},
	{"len 255", chatText(strings.Repeat("a", 255)), "len"},
	{"144 bytes of 2-byte runes", chatText(strings.Repeat("é", 72)), ""},
	{"invalid UTF-8", chatText("ab\xffcd"), "text"},
	{"cut rune", chatText("é"[:1]), "text"},
	{"tab", chatText("a\tb"), "text"},
	{"newline", chatText("a\n"), "text"},
	{"NUL", chatText("a\x00"), "text"},
	{"DEL", chatText("a\x7f"), "text"},
	{"space and tilde", chatText(" ~"), ""},
}

func TestClientChatExample(t *testing.T) {
	checkExample(t, "client_chat.bin", validClientChat())
	checkTruncated(t, validClientChat().Append(nil), func() Packet { return new(ClientChat) })
}

func TestClientChatRules(t *testing.T) {
	cases := append([]ruleCase{
		{"token 0", func(p Packet) { p.(*ClientChat).Token = 0 }, "token"},
	}, chatTextCases...)
	checkRules(t, "client", validClientChat, send, cases)
	checkRules(t, "server", validClientChat, recv, cases)
}

// TestClientChatBackToBack checks that a chat line is self-delimiting: two
// packets in one datagram parse one after the other, and the text is a copy.
func TestClientChatBackToBack(t *testing.T) {
	a := validClientChat().Append(nil)
	b := validPlayerSync().Append(nil)
	dgram := append(bytes.Clone(a), b...)
	var p ClientChat
	n, err := p.Parse(dgram)
	if err != nil || n != len(a) {
		t.Fatalf("Parse = %d, %v; want %d, nil", n, err, len(a))
	}
	if _, err := new(PlayerSync).Parse(dgram[n:]); err != nil {
		t.Fatalf("the next packet: %v", err)
	}
	text := p.Text.String()
	clear(dgram)
	if got := p.Text.String(); got != text {
		t.Errorf("text changed with the datagram: got %q, want %q", got, text)
	}
}

func TestChatTextJSON(t *testing.T) {
	p := validClientChat().(*ClientChat)
	j, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j), `"text":"/tp grove street — ünïcode"`) {
		t.Errorf("JSON %s does not hold the text as a string", j)
	}
	var q ClientChat
	if err := json.Unmarshal(j, &q); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(q.Append(nil), p.Append(nil)) {
		t.Errorf("JSON round trip changed the packet:\n%x\n%x", q.Append(nil), p.Append(nil))
	}
	if err := json.Unmarshal([]byte(`{"text":"`+strings.Repeat("a", 256)+`"}`), &q); err == nil {
		t.Errorf("a 256-byte text unmarshaled")
	}
}

func FuzzClientChat(f *testing.F) {
	f.Add(validClientChat().Append(nil))
	f.Add([]byte{IDClientChat, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 200})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ClientChat) }) })
}

func BenchmarkClientChat(b *testing.B) {
	benchCodec(b, validClientChat(), func() Packet { return new(ClientChat) })
}
