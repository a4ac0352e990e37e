package wire

import "testing"

func validChatMessage() Packet {
	p := &ChatMessage{EventID: 11, From: 7, Color: 0xFFCC00}
	p.Text.Set("CJ: Ah shit, here we go again.")
	return p
}

func TestChatMessageExample(t *testing.T) {
	checkExample(t, "chat_message.bin", validChatMessage())
	checkTruncated(t, validChatMessage().Append(nil), func() Packet { return new(ChatMessage) })
}

func TestChatMessageRules(t *testing.T) {
	cases := append([]ruleCase{
		{"from 0", func(p Packet) { p.(*ChatMessage).From = 0 }, ""},
		{"from 999", func(p Packet) { p.(*ChatMessage).From = 999 }, ""},
		{"from 1000", func(p Packet) { p.(*ChatMessage).From = 1000 }, "from"},
		{"from 0xFFFE", func(p Packet) { p.(*ChatMessage).From = 0xFFFE }, "from"},
		{"from the server", func(p Packet) { p.(*ChatMessage).From = 0xFFFF }, ""},
		{"color 0xFFFFFF", func(p Packet) { p.(*ChatMessage).Color = 0xFFFFFF }, ""},
		{"color 0x1000000", func(p Packet) { p.(*ChatMessage).Color = 0x1000000 }, "color"},
	}, chatTextCases...)
	checkRules(t, "server", validChatMessage, send, cases)
	checkRules(t, "client", validChatMessage, recv, cases)
}

func FuzzChatMessage(f *testing.F) {
	f.Add(validChatMessage().Append(nil))
	f.Add([]byte{IDChatMessage, 1, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 2, 'h'})
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRoundTrip(t, data, func() Packet { return new(ChatMessage) }) })
}

func BenchmarkChatMessage(b *testing.B) {
	benchCodec(b, validChatMessage(), func() Packet { return new(ChatMessage) })
}
