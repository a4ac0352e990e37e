package world

import (
	"strings"
	"testing"

	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

type chatter struct {
	recorder
	lines []string
}

func (c *chatter) Chat(p *Player, text string) { c.lines = append(c.lines, text) }

func TestChatThroughTheGamemode(t *testing.T) {
	f := newFixture(t, nil)
	gm := &chatter{}
	f.w.gm = gm
	a, ca := f.join()
	_, cb := f.join()
	msg := &wire.ClientChat{Token: 1}
	msg.Text.Set("hello /there")
	f.w.Packet(a, msg, f.now)
	bad := &wire.ClientChat{Token: 1}
	bad.Text.Set("bell\x07")
	f.w.Packet(a, bad, f.now)
	if len(gm.lines) != 1 || gm.lines[0] != "hello /there" || f.w.Stats().ChatDropped != 1 {
		t.Fatalf("got lines %q, %d dropped; want the valid line only", gm.lines, f.w.Stats().ChatDropped)
	}
	if len(ca.out)+len(cb.out) != 0 {
		t.Fatal("the world relayed a chat line by itself")
	}
	if err := f.w.BroadcastChat(a.ID(), 0xFFAA00, "hi all"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*testConn{ca, cb} {
		out := c.take()
		cm := only[*wire.ChatMessage](out)
		if len(cm) != 1 || out[0].class != lane.Droppable || cm[0].From != a.ID() || cm[0].Text.String() != "hi all" {
			t.Fatalf("got %+v, want one droppable ChatMessage from %d", out, a.ID())
		}
	}
	if err := f.w.SendChat(a, FromServer, 0xFFFFFF, "just you"); err != nil {
		t.Fatal(err)
	}
	if len(ca.take()) != 1 || len(cb.take()) != 0 {
		t.Fatal("SendChat did not go to the one player only")
	}
	wantArgErr(t, f.w.SendChat(a, FromServer, 0x1000000, "x"), "send_chat", "color")
	wantArgErr(t, f.w.SendChat(a, 1000, 0, "x"), "send_chat", "from")
	wantArgErr(t, f.w.BroadcastChat(FromServer, 0, strings.Repeat("a", 145)), "broadcast_chat", "len")
	wantArgErr(t, f.w.BroadcastChat(FromServer, 0, ""), "broadcast_chat", "len")
}
