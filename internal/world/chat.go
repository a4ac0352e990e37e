package world

import (
	"dlmp/internal/lane"
	"dlmp/internal/wire"
)

// Chat (protocol.md ClientChat, ChatMessage): a line a player typed goes to
// the gamemode, which decides what to do with it (a command starts with
// `/`); nothing is relayed by the world itself. The gamemode sends lines
// with SendChat and BroadcastChat, droppable (a later line supersedes
// nothing, but chat is not state).

// FromServer is the `from` of a chat line the server itself says.
const FromServer = 0xFFFF

func (w *World) clientChat(p *Player, m *wire.ClientChat) {
	if m.CheckRecv() != nil {
		// The lane acked it; the transport should have dropped it already.
		w.stats.ChatDropped++
		return
	}
	w.gm.Chat(p, m.Text.String())
}

// SendChat sends one chat line to a player (ChatMessage, droppable): from
// is a player id or FromServer, color 0xRRGGBB, text 1..=144 bytes of UTF-8
// without control characters.
func (w *World) SendChat(to *Player, from uint16, color uint32, text string) error {
	pkt, err := chatMessage("send_chat", from, color, text)
	if err != nil {
		return err
	}
	return w.send(to, pkt, lane.Droppable)
}

// BroadcastChat sends one chat line to every connected player.
func (w *World) BroadcastChat(from uint16, color uint32, text string) error {
	pkt, err := chatMessage("broadcast_chat", from, color, text)
	if err != nil {
		return err
	}
	w.sendAll(pkt, lane.Droppable)
	return nil
}

func chatMessage(fn string, from uint16, color uint32, text string) (*wire.ChatMessage, error) {
	pkt := &wire.ChatMessage{From: from, Color: color}
	if !pkt.Text.Set(text) {
		return nil, &ArgError{Func: fn, Arg: "text", Rule: "must be 1..=144 bytes, got more than 255"}
	}
	if err := pkt.CheckSend(); err != nil {
		return nil, fieldArgErr(fn, err)
	}
	return pkt, nil
}
